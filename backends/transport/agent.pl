# gridsweep's agent: started on a host over the run's connection (perl -e, nothing installed): an SSH host,
# this machine's local slots, a Slurm pilot's allocation through srun. It runs the shell commands the
# controller sends on its one channel, any number at once, and answers each with its exit: so a task costs a
# line each way instead of a channel of its own.
#
# Protocol, one JSON object per line.
#   In {"id": N, "script": "..."}: runs the script with /bin/sh in a session of its own, standard input
#   /dev/null. Out, once it has exited: {"id": N, "code": C or null, "signal": "TERM" or null, "stdout":
#   "...", "stderr": "..."} (stdout up to 1 MiB, the last 4000 bytes of stderr).
#   In {"id": N, "task": {"dir", "argv", "links": [[target, path]], "dirs", "outputs"}}: a task, prepared and
#   measured here instead of by a shell script of a dozen processes: a fresh working directory with the
#   inputs linked in and the outputs' directories made, the command run there in a session of its own (its
#   process group's id in .gridsweep.pid, for cancelling), its standard output discarded (nothing reads
#   it: results are the declared outputs), its standard error in .gridsweep.stderr, how it ended in
#   .gridsweep.exit. Out: {"id": N, "code", "signal", "stderr": its
#   last 4000 bytes, "outputs": [[size, sha256] or null per output] on exit 0}; code 200 when the
#   directory could not be prepared. With "inline": B in the task, the outputs come back whole (base64,
#   a third element) while their sizes add up to at most B bytes: no round trip to fetch them. With
#   "keep": K, its standard output goes to .gridsweep.stdout instead of /dev/null (removed once sent), and
#   the answer carries "kept": [[stdout size, base64 of its last K bytes], [stderr size, base64 of its last K
#   bytes]].
#   In {"id": N, "remove": {"paths": [...]}}: removes directory trees (in a child process: a slow file
#   system must not stall the agent). Out as for a script.
#   In {"id": N, "write": {"path", "data": base64}}: a small file written whole (to path.part, then renamed).
#   A large one comes in parts: "more": true on all but the last, "append": true on all but the first.
#   In {"id": N, "read": {"path", "max": bytes}}: a small file read whole. With "offset" too, the part of at
#   most max bytes from there, and "size": the file's size. Out for both: {"id": N, "code": 0 or 1,
#   "stderr": why it failed, "data": base64 (read)}; a whole read of a file larger than max fails.
# Answers ready together leave in one write. Everything it needs ships with perl (core modules since 5.14). When the controller's side closes, it lets
# the commands running finish, then removes its scratch directory and exits.
use strict;
use warnings;
use Config;
use File::Path qw(remove_tree);
use File::Temp qw(tempdir);
use IO::Select;
use Digest::SHA;
use File::Path qw(make_path);
use JSON::PP;
use MIME::Base64 qw(encode_base64 decode_base64);
use POSIX qw(setsid WNOHANG _exit);

my @signal_names = split ' ', $Config{sig_name};
# Answers: bytes above 127 travel as \u00XX escapes, so the controller gets the bytes back exactly.
my $json = JSON::PP->new->canonical->ascii;
# Requests are UTF-8 JSON; their strings are used as UTF-8 bytes (command lines, paths).
my $json_in = JSON::PP->new->utf8;

sub as_bytes {
  my ($value) = @_;
  if (ref $value eq 'HASH') { $value->{$_} = as_bytes($value->{$_}) for keys %$value; return $value }
  if (ref $value eq 'ARRAY') { $_ = as_bytes($_) for @$value; return $value }
  utf8::encode($value) if defined $value && !ref $value;
  return $value;
}
# A fresh name each time: an agent killed outright leaves its directory, and a later one may get its pid.
my $scratch = eval { tempdir('gridsweep-agent-XXXXXXXX', TMPDIR => 1) } or die "gridsweep agent: cannot create a scratch directory: $@\n";
$SIG{PIPE} = 'IGNORE';

# A child's exit wakes the main loop through this pipe.
pipe(my $wake_r, my $wake_w) or die "gridsweep agent: pipe: $!\n";
$wake_w->autoflush(1);
$wake_w->blocking(0);    # a full pipe already holds a wake-up; the handler must never block
$SIG{CHLD} = sub { syswrite($wake_w, 'x') };

my %job_of_pid;
my $controller = 1;
my $input = '';
my $select = IO::Select->new(\*STDIN, $wake_r);
STDOUT->autoflush(1);
my $answers = '';

sub answer {
  my ($message) = @_;
  $answers .= $json->encode($message) . "\n" if $controller;
}

sub send_answers {
  print STDOUT $answers if length $answers;
  $answers = '';
}

sub read_whole {
  my ($path) = @_;
  open(my $fh, '<', $path) or return undef;
  binmode $fh;
  local $/;
  my $data = <$fh> // '';
  close $fh;
  return $data;
}

sub take_file {
  my ($path, $max, $tail) = @_;
  my $text = read_whole($path) // '';
  unlink $path;
  return $text if length($text) <= $max;
  return $tail ? substr($text, -$max) : substr($text, 0, $max);
}

sub tail_of {
  my ($path, $max) = @_;
  open(my $fh, '<', $path) or return '';
  binmode $fh;
  my $size = -s $fh;
  seek($fh, $size - $max, 0) if $size > $max;
  local $/;
  my $text = <$fh> // '';
  close $fh;
  return $text;
}

sub facts_of {
  my ($path, $inline) = @_;
  return undef unless -f $path;
  my $size = -s _;
  if ($size <= $$inline) {
    my $data = read_whole($path);
    if (defined $data && length($data) == $size) {
      $$inline -= $size;
      return [ $size, Digest::SHA::sha256_hex($data), encode_base64($data, '') ];
    }
  }
  return [ $size, Digest::SHA->new(256)->addfile($path, 'b')->hexdigest ];
}

my %task_of_job;

sub start_task {
  my ($id, $task) = @_;
  my $dir = $task->{dir};
  remove_tree($dir);
  my ($problem, @missing);
  make_path($dir, (map { "$dir/$_" } @{ $task->{dirs} }), { error => \my $errors });
  $problem = "cannot make $dir" if @$errors;
  for my $link (@{ $task->{links} }) {
    last if $problem;
    # A hard link: the task keeps its input even if the stored name goes meanwhile (a scratch purge);
    # a symbolic one where the file system has none.
    next if link($link->[0], "$dir/$link->[1]");
    # An input gone from the storage since it was stored: the task does not run.
    if (!-e $link->[0]) {
      push @missing, $link->[1];
      next;
    }
    symlink($link->[0], "$dir/$link->[1]") or $problem = "cannot link $link->[1]: $!";
  }
  $problem //= "input(s) missing from the storage: @missing" if @missing;
  if ($problem) {
    answer({ id => $id, code => 200, signal => undef, stderr => "gridsweep agent: $problem", (@missing ? (missing => \@missing) : ()) });
    return;
  }
  my $pid = fork();
  if (!defined $pid) {
    answer({ id => $id, code => 200, signal => undef, stderr => "gridsweep agent: fork failed: $!" });
    return;
  }
  if ($pid == 0) {
    chdir($dir) or _exit(200);
    setsid();
    if (open(my $fh, '>', '.gridsweep.pid')) { print $fh "$$\n"; close $fh; }
    open(STDIN, '<', '/dev/null');
    open(STDOUT, '>', $task->{keep} ? '.gridsweep.stdout' : '/dev/null');
    open(STDERR, '>', '.gridsweep.stderr');
    my @argv = @{ $task->{argv} };
    no warnings 'exec';
    exec { $argv[0] } @argv;
    print STDERR "gridsweep agent: cannot run $argv[0]: $!\n";
    _exit(127);
  }
  $job_of_pid{$pid} = $id;
  $task_of_job{$id} = $task;
}

sub task_ended {
  my ($id, $task, $code, $signal) = @_;
  my $dir = $task->{dir};
  # How it ended, for a controller that was not there to hear it (a resumed run adopts it): written over
  # the pid file, then renamed (creating a file costs a file system far more than reusing one), which also
  # leaves a cancel nothing to kill.
  if (open(my $fh, '>', "$dir/.gridsweep.pid")) {
    print $fh (defined $code ? $code : "signal $signal"), "\n";
    close $fh;
    rename("$dir/.gridsweep.pid", "$dir/.gridsweep.exit");
  }
  my %answer = (id => $id, code => $code, signal => $signal, stderr => tail_of("$dir/.gridsweep.stderr", 4000));
  if ($task->{keep}) {
    $answer{kept} = [ map { [ 0 + ((-s "$dir/$_") || 0), encode_base64(tail_of("$dir/$_", $task->{keep}), '') ] } ('.gridsweep.stdout', '.gridsweep.stderr') ];
    unlink("$dir/.gridsweep.stdout");    # sent: the controller's removal of the directory has one file less
  }
  my $inline = $task->{inline} // 0;
  $answer{outputs} = [ map { facts_of("$dir/$_", \$inline) } @{ $task->{outputs} } ] if defined $code && $code == 0;
  answer(\%answer);
}

sub write_file {
  my ($id, $request) = @_;
  my $path = $request->{path};
  my $ok = open(my $fh, $request->{append} ? '>>' : '>', "$path.part");
  $ok = $ok && binmode($fh) && print($fh decode_base64($request->{data})) && close($fh) && ($request->{more} || rename("$path.part", $path));
  answer({ id => $id, code => $ok ? 0 : 1, signal => undef, stderr => $ok ? '' : "cannot write $path: $!" });
}

sub read_file {
  my ($id, $request) = @_;
  my $path = $request->{path};
  my $size = -s $path;
  if (defined $request->{offset}) {
    my ($data, $ok) = ('', open(my $fh, '<', $path));
    $ok = $ok && binmode($fh) && seek($fh, $request->{offset}, 0) && defined(read($fh, $data, $request->{max}));
    close $fh if $fh;
    answer({ id => $id, code => $ok ? 0 : 1, signal => undef, stderr => $ok ? '' : "cannot read $path: $!", data => encode_base64($data, ''), size => ($size // 0) + 0 });
    return;
  }
  if (!defined $size || $size > $request->{max}) {
    answer({ id => $id, code => 1, signal => undef, stderr => defined $size ? "$path is larger than $request->{max} bytes" : "cannot read $path: $!" });
    return;
  }
  my $data = read_whole($path);
  answer({ id => $id, code => defined $data ? 0 : 1, signal => undef, stderr => defined $data ? '' : "cannot read $path: $!", data => encode_base64($data // '', '') });
}

sub launch {
  my ($id, $script, $trees) = @_;
  my $pid = fork();
  if (!defined $pid) {
    answer({ id => $id, code => undef, signal => undef, stdout => '', stderr => "gridsweep agent: fork failed: $!" });
    return;
  }
  if ($pid == 0) {
    setsid();
    open(STDIN, '<', '/dev/null');
    open(STDOUT, '>', "$scratch/$id.out");
    open(STDERR, '>', "$scratch/$id.err");
    if (defined $trees) {
      remove_tree(@$trees, { error => \my $errors });
      my @problems = map { my ($path, $why) = %$_; "cannot remove $path: $why\n" } @$errors;
      print STDERR @problems[0 .. ($#problems < 4 ? $#problems : 4)];
      print STDERR "and ", @problems - 5, " more\n" if @problems > 5;
      _exit(@$errors ? 1 : 0);
    }
    exec('/bin/sh', '-c', $script) or _exit(127);
  }
  $job_of_pid{$pid} = $id;
}

sub reap {
  while ((my $pid = waitpid(-1, WNOHANG)) > 0) {
    my $id = delete $job_of_pid{$pid};
    next unless defined $id;
    my $status = $?;
    my $signal = $status & 127;
    my $task = delete $task_of_job{$id};
    if ($task) {
      task_ended($id, $task, $signal ? undef : $status >> 8, $signal ? $signal_names[$signal] : undef);
      next;
    }
    answer({
      id     => $id,
      code   => $signal ? undef : $status >> 8,
      signal => $signal ? $signal_names[$signal] : undef,
      stdout => take_file("$scratch/$id.out", 1 << 20, 0),
      stderr => take_file("$scratch/$id.err", 4000, 1),
    });
  }
}

while ($controller || %job_of_pid) {
  for my $fh ($select->can_read(1)) {
    if ($fh == $wake_r) {
      sysread($wake_r, my $ignored, 4096);
      next;
    }
    my $n = sysread(STDIN, my $chunk, 65536);
    if (!$n) {
      $controller = 0;
      $select->remove(\*STDIN);
      next;
    }
    $input .= $chunk;
    while ($input =~ s/^([^\n]*)\n//) {
      my $request = eval { $json_in->decode($1) };
      next unless ref $request eq 'HASH';
      for my $part (qw(script task write read remove)) {
        $request->{$part} = as_bytes($request->{$part}) if exists $request->{$part};
      }
      if ($request->{task}) { start_task($request->{id}, $request->{task}) }
      elsif ($request->{write}) { write_file($request->{id}, $request->{write}) }
      elsif ($request->{read}) { read_file($request->{id}, $request->{read}) }
      elsif ($request->{remove}) { launch($request->{id}, undef, $request->{remove}{paths}) }
      else { launch($request->{id}, $request->{script}) }
    }
  }
  reap();
  send_answers();
}
remove_tree($scratch);
