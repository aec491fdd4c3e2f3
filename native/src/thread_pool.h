// A persistent pool of worker threads for the multithreaded CPU loops. Starting threads per call would cost tens of
// microseconds per sample and land inside the measurement; these threads sleep between jobs.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gpulab {

class ThreadPool {
 public:
  // The largest thread count a caller may ask for.
  static constexpr size_t kMaxThreads = 256;

  static ThreadPool& Global();
  // Logical cores: the default thread count.
  size_t size() const { return hardware_; }

  // Runs body(begin, end) over [0, n) on up to `threads` threads, the calling thread among them, and returns when
  // every element is done. The range is cut into chunks of at least `grain` elements (multiples of 64), about four
  // per thread, and each thread takes the next chunk left until none is: a thread that starts late (woken slowly,
  // preempted by another program) leaves its share to the others instead of holding the loop up, so that a loop of
  // microseconds is not as slow as its slowest core. Small ranges use fewer threads, down to the caller alone: waking
  // a sleeping worker costs microseconds, more than a few thousand elements of a memory-bound loop take.
  // `ifBusy`: a measured op waits for the pool (a sample labelled "N threads" must run on N threads); work on the
  // JS thread, such as filling a buffer, runs alone on the caller rather than block the event loop.
  enum class IfBusy { Wait, RunAlone };
  void ParallelFor(size_t n, size_t threads, const std::function<void(size_t, size_t)>& body, size_t grain = 1,
                   IfBusy ifBusy = IfBusy::Wait);

  ~ThreadPool();

 private:
  // One call's work, shared with the workers taking part. A worker that wakes after every chunk is taken finds
  // none left and never touches `body` (which lives on the caller's stack only until the call returns); the job
  // itself lives on as long as any worker still holds it.
  struct Job {
    size_t n = 0;
    size_t chunkElements = 1;
    size_t chunks = 0;
    const std::function<void(size_t, size_t)>* body = nullptr;
    std::atomic<size_t> next{0};
    std::atomic<size_t> done{0};
  };
  // One worker's ticket and the bell it sleeps on. A job is handed to a worker under its own lock, with a new ticket
  // number, and only the workers that take part are woken: with one shared condition variable every sleeping worker
  // woke at every job only to sleep again, and those system calls landed in the caller's samples.
  struct Slot {
    std::atomic<uint64_t> ticket{0};
    std::mutex m;
    std::condition_variable bell;
    std::shared_ptr<Job> job;
  };

  ThreadPool();
  void EnsureWorkers(size_t count);
  void WorkerLoop(Slot* slot, uint64_t seen);
  // Takes chunks of `job` until none is left; true if this thread finished its last one.
  bool Work(Job& job);

  size_t hardware_;
  std::mutex busy_;  // held by the caller that owns the pool for one ParallelFor
  std::mutex m_;
  std::condition_variable done_;
  std::vector<std::thread> workers_;
  std::vector<std::unique_ptr<Slot>> slots_;
  uint64_t jobs_ = 0;
  std::atomic<bool> stop_{false};
};

}  // namespace gpulab
