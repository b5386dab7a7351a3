// The SimGrid twin of the simulation benchmark's work-queue sweep (bench/sim.bench.ts, case (a)), written
// against SimGrid's S4U interface, so that gridsweep's speed is measured against the reference simulator
// in the same run and both makespans can be compared.
//
// The same star platform: an origin host, and per cluster one link (latency, bandwidth) between the origin
// and each of its hosts; each host computes at 1 flop/s scaled by its availability series (a sample per
// period, looping; a host with a single sample computes at that constant speed, without a profile). The
// same master-worker policy as the benchmark's minimal work queue: at the start each host, in order, asks
// for the next task, whose input goes onto its cluster's link queue; a link carries one transfer at a
// time, in the order they were queued; a host computes a task once its input has arrived, then queues its
// output and asks for the next task (whose input queues behind that output). The makespan is the end of
// the last output's transfer. Network model CM02 without the TCP window cap: a transfer alone
// on its link takes latency + size / bandwidth.
//
// Input (argv[1]), written by the benchmark:
//   tasks N / input_bytes B / output_bytes B / work_flops F / latency_s L / bandwidth_Bps B / period_s P
//   host CLUSTER A0 A1 ...      one line per host, in order; availabilities as fractions, from the host's offset on
// Output: "makespan <seconds>" (17 significant digits) and "tasks <done>".
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Sweep {
  long tasks = 0;
  double input_bytes = 0;
  double output_bytes = 0;
  double work_flops = 0;
  double latency_s = 0;
  double bandwidth = 0;
  double period_s = 0;
  std::vector<int> cluster_of;
  std::vector<std::vector<double>> availability;
  int clusters = 0;
};

/** A transfer waiting for its cluster's link: a task's input to a host, or a host's output back. */
struct Transfer {
  bool output;
  int host;
};

struct LinkQueue {
  std::deque<Transfer> waiting;
  sg4::MutexPtr mutex = sg4::Mutex::create();
  sg4::ConditionVariablePtr not_empty = sg4::ConditionVariable::create();
};

Sweep sweep;
long next_task = 0;
long tasks_done = 0;
std::vector<LinkQueue> links;
std::vector<sg4::Mailbox*> inputs;
std::vector<sg4::Mailbox*> outputs;
int payload = 0;

Sweep read_sweep(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(2);
  }
  Sweep s;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "tasks") words >> s.tasks;
    else if (key == "input_bytes") words >> s.input_bytes;
    else if (key == "output_bytes") words >> s.output_bytes;
    else if (key == "work_flops") words >> s.work_flops;
    else if (key == "latency_s") words >> s.latency_s;
    else if (key == "bandwidth_Bps") words >> s.bandwidth;
    else if (key == "period_s") words >> s.period_s;
    else if (key == "host") {
      int cluster = 0;
      words >> cluster;
      std::vector<double> samples;
      double a = 0;
      while (words >> a) samples.push_back(a);
      s.cluster_of.push_back(cluster);
      s.availability.push_back(samples);
      if (cluster + 1 > s.clusters) s.clusters = cluster + 1;
    }
  }
  return s;
}

void queue_transfer(int host, bool output) {
  LinkQueue& link = links[sweep.cluster_of[host]];
  link.waiting.push_back({output, host});
  link.not_empty->notify_one();
}

/** Hands `host` the next task, if any is left: its input joins the link queue. */
bool ask_for_task(int host) {
  if (next_task >= sweep.tasks) return false;
  next_task++;
  queue_transfer(host, false);
  return true;
}

/** One per cluster, on the origin: carries the link's transfers one at a time, in queue order. */
void link_carrier(int cluster) {
  LinkQueue& link = links[cluster];
  for (;;) {
    {
      std::unique_lock lock(*link.mutex);
      while (link.waiting.empty()) link.not_empty->wait(lock);
    }
    Transfer t = link.waiting.front();
    link.waiting.pop_front();
    if (t.output) {
      outputs[t.host]->get<int>();
    } else {
      inputs[t.host]->put(&payload, sweep.input_bytes);
    }
  }
}

void worker(int host) {
  bool has_task = ask_for_task(host);
  while (has_task) {
    inputs[host]->get<int>();
    sg4::this_actor::execute(sweep.work_flops);
    queue_transfer(host, true);
    has_task = ask_for_task(host);
    outputs[host]->put(&payload, sweep.output_bytes);
    tasks_done++;
  }
}

std::string profile_text(const std::vector<double>& samples) {
  std::ostringstream text;
  text.precision(17);
  for (size_t i = 0; i < samples.size(); i++) text << static_cast<double>(i) * sweep.period_s << ' ' << samples[i] << '\n';
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  sg4::Engine engine(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s SWEEP.txt\n", argv[0]);
    return 2;
  }
  engine.set_config("network/model:CM02");
  engine.set_config("network/TCP-gamma:0");
  engine.set_config("network/crosstraffic:0");
  sweep = read_sweep(argv[1]);

  sg4::NetZone* zone = sg4::create_full_zone("grid");
  sg4::Host* origin = zone->create_host("origin", 1.0);
  std::vector<sg4::Link*> cluster_links;
  for (int c = 0; c < sweep.clusters; c++) cluster_links.push_back(zone->create_link("link" + std::to_string(c), sweep.bandwidth)->set_latency(sweep.latency_s));
  std::vector<sg4::Host*> hosts;
  for (size_t h = 0; h < sweep.cluster_of.size(); h++) {
    std::string name = "host" + std::to_string(h);
    const auto& samples = sweep.availability[h];
    // One sample: a constant speed, no profile (SimGrid then has no availability events to process).
    sg4::Host* host = zone->create_host(name, samples.size() == 1 ? samples[0] : 1.0);
    if (samples.size() > 1)
      host->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(name + "-availability", profile_text(samples), static_cast<double>(samples.size()) * sweep.period_s));
    zone->add_route(origin->get_netpoint(), host->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(cluster_links[sweep.cluster_of[h]])}, true);
    hosts.push_back(host);
  }
  zone->seal();

  links = std::vector<LinkQueue>(sweep.clusters);
  for (size_t h = 0; h < hosts.size(); h++) {
    inputs.push_back(sg4::Mailbox::by_name("in" + std::to_string(h)));
    outputs.push_back(sg4::Mailbox::by_name("out" + std::to_string(h)));
  }
  for (int c = 0; c < sweep.clusters; c++) sg4::Actor::create("link" + std::to_string(c), origin, link_carrier, c)->daemonize();
  for (size_t h = 0; h < hosts.size(); h++) sg4::Actor::create("worker" + std::to_string(h), hosts[h], worker, static_cast<int>(h));
  engine.run();
  std::printf("makespan %.17g\ntasks %ld\n", sg4::Engine::get_clock(), tasks_done);
  return tasks_done == sweep.tasks ? 0 : 1;
}
