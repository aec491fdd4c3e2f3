// A persistent pool of worker threads for the multithreaded CPU loops. Starting threads per call would cost tens of
// microseconds per sample and land inside the measurement; these threads sleep on a condition variable between jobs.
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

  // Splits [0, n) into `threads` contiguous ranges (multiples of 64 elements where possible) and runs
  // body(begin, end) on each, the calling thread taking the first. Returns when all are done. If another caller
  // holds the pool, the caller waits or runs the whole range alone, as `ifBusy` says.
  // `grain`: the fewest elements worth a thread of their own. Waking a sleeping worker costs microseconds (tens
  // of them for sixteen workers in a VM), more than a few thousand elements of a memory-bound loop take, so small
  // ranges use fewer threads, down to the calling thread alone.
  // `ifBusy`: a measured op waits for the pool (a sample labelled "N threads" must run on N threads); work on the
  // JS thread, such as filling a buffer, runs alone on the caller rather than block the event loop.
  enum class IfBusy { Wait, RunAlone };
  void ParallelFor(size_t n, size_t threads, const std::function<void(size_t, size_t)>& body, size_t grain = 1,
                   IfBusy ifBusy = IfBusy::Wait);

  ~ThreadPool();

 private:
  ThreadPool();
  void EnsureWorkers(size_t count);
  void WorkerLoop(size_t slot, std::atomic<uint64_t>* ticket, uint64_t seen);

  size_t hardware_;
  std::mutex busy_;  // held by the caller that owns the pool for one ParallelFor
  std::mutex m_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  // One ticket per worker. A job is published by writing its fields, then storing the job's number in the ticket
  // of each worker that takes part (release); a worker that sees its ticket change (acquire) sees the fields, and
  // the fields stay unchanged until every participant is done. Workers left out of a job are not disturbed: no
  // shared counter for all of them to wake on and queue behind.
  std::vector<std::unique_ptr<std::atomic<uint64_t>>> tickets_;
  uint64_t jobs_ = 0;
  std::atomic<size_t> pending_{0};
  size_t n_ = 0, chunks_ = 0;
  const std::function<void(size_t, size_t)>* body_ = nullptr;
  bool stop_ = false;
};

// The range of chunk `index` out of `chunks` over n elements.
void ChunkRange(size_t n, size_t chunks, size_t index, size_t* begin, size_t* end);

}  // namespace gpulab
