#include "thread_pool.h"

#include <algorithm>
#include <chrono>

namespace gpulab {

void ChunkRange(size_t n, size_t chunks, size_t index, size_t* begin, size_t* end) {
  // Align chunk borders to 64 elements so that no two threads write the same cache line.
  const size_t align = n >= chunks * 64 ? 64 : 1;
  const size_t units = (n + align - 1) / align;
  const size_t per = units / chunks, extra = units % chunks;
  const size_t b = index * per + std::min(index, extra);
  const size_t e = b + per + (index < extra ? 1 : 0);
  *begin = std::min(n, b * align);
  *end = std::min(n, e * align);
}

ThreadPool& ThreadPool::Global() {
  // Never destroyed: joining threads during process exit, after the addon's environment is gone, is not safe.
  static ThreadPool* pool = new ThreadPool();
  return *pool;
}

ThreadPool::ThreadPool() {
  unsigned h = std::thread::hardware_concurrency();
  hardware_ = h == 0 ? 1 : h;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::EnsureWorkers(size_t count) {
  while (workers_.size() < count) {
    size_t slot = workers_.size() + 1;  // slot 0 is the calling thread
    tickets_.push_back(std::make_unique<std::atomic<uint64_t>>(jobs_));
    std::atomic<uint64_t>* ticket = tickets_.back().get();
    // The job count at creation goes in by value: read in the new thread, it could already be the job that the
    // caller is about to hand it, and the worker would wait for a ticket it holds.
    const uint64_t seen = jobs_;
    workers_.emplace_back([this, slot, ticket, seen] { WorkerLoop(slot, ticket, seen); });
  }
}

namespace {
// After a job, threads spin this long before sleeping: the samples of a benchmark come back to back, and a worker
// woken from a futex wait starts tens of microseconds late (more with many workers in a VM), which would land in
// every sample of a small multithreaded loop.
constexpr auto kSpin = std::chrono::microseconds(50);

template <typename Ready>
bool SpinUntil(Ready&& ready) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (unsigned i = 1;; ++i) {
    if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if ((i & 63) == 0 && std::chrono::steady_clock::now() > deadline) return false;
  }
}
}  // namespace

void ThreadPool::WorkerLoop(size_t slot, std::atomic<uint64_t>* ticket, uint64_t seen) {
  for (;;) {
    auto hasWork = [&] { return ticket->load(std::memory_order_acquire) != seen; };
    if (!SpinUntil(hasWork)) {
      std::unique_lock<std::mutex> lock(m_);
      wake_.wait(lock, [&] { return stop_ || hasWork(); });
      if (stop_) return;
    }
    seen = ticket->load(std::memory_order_acquire);
    size_t b, e;
    ChunkRange(n_, chunks_, slot, &b, &e);
    if (b < e) (*body_)(b, e);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // Notify under the lock: the caller either sees pending_ == 0 in its predicate or is already waiting.
      std::lock_guard<std::mutex> lock(m_);
      done_.notify_one();
    }
  }
}

void ThreadPool::ParallelFor(size_t n, size_t threads, const std::function<void(size_t, size_t)>& body, size_t grain,
                             IfBusy ifBusy) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
  threads = std::clamp<size_t>(std::min(threads, (n + grain - 1) / grain), 1, kMaxThreads);
  if (threads == 1) {
    body(0, n);
    return;
  }
  std::unique_lock<std::mutex> owner(busy_, std::defer_lock);
  if (ifBusy == IfBusy::Wait) {
    owner.lock();
  } else if (!owner.try_lock()) {
    body(0, n);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(m_);
    EnsureWorkers(threads - 1);
  }
  n_ = n;
  chunks_ = threads;
  body_ = &body;
  pending_.store(threads - 1, std::memory_order_relaxed);
  ++jobs_;
  for (size_t slot = 1; slot < threads; ++slot) tickets_[slot - 1]->store(jobs_, std::memory_order_release);
  {
    // Taken between the tickets and the notify: a worker checking its ticket under the lock before sleeping either
    // sees the new job or is asleep when the notify comes.
    std::lock_guard<std::mutex> lock(m_);
  }
  wake_.notify_all();
  size_t b, e;
  ChunkRange(n, threads, 0, &b, &e);
  if (b < e) body(b, e);
  auto finished = [&] { return pending_.load(std::memory_order_acquire) == 0; };
  if (!SpinUntil(finished)) {
    std::unique_lock<std::mutex> lock(m_);
    done_.wait(lock, finished);
  }
}

}  // namespace gpulab
