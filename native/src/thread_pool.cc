#include "thread_pool.h"

#include <algorithm>
#include <chrono>

namespace gpulab {

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
  stop_.store(true);
  for (auto& slot : slots_) {
    std::lock_guard<std::mutex> lock(slot->m);
    slot->bell.notify_one();
  }
  for (auto& t : workers_) t.join();
}

void ThreadPool::EnsureWorkers(size_t count) {
  while (workers_.size() < count) {
    slots_.push_back(std::make_unique<Slot>());
    Slot* slot = slots_.back().get();
    // The ticket at creation goes in by value: read in the new thread, it could already be the job that the
    // caller is about to hand it, and the worker would wait for a ticket it holds.
    const uint64_t seen = slot->ticket.load(std::memory_order_relaxed);
    workers_.emplace_back([this, slot, seen] { WorkerLoop(slot, seen); });
  }
}

namespace {
// After a job, threads spin this long before sleeping: the samples of a benchmark come back to back, and a worker
// woken from a futex wait starts tens of microseconds late (more with many workers in a VM).
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

bool ThreadPool::Work(Job& job) {
  bool finishedLast = false;
  for (size_t c = job.next.fetch_add(1, std::memory_order_relaxed); c < job.chunks; c = job.next.fetch_add(1, std::memory_order_relaxed)) {
    const size_t begin = c * job.chunkElements;
    (*job.body)(begin, std::min(job.n, begin + job.chunkElements));
    if (job.done.fetch_add(1, std::memory_order_acq_rel) + 1 == job.chunks) finishedLast = true;
  }
  return finishedLast;
}

void ThreadPool::WorkerLoop(Slot* slot, uint64_t seen) {
  for (;;) {
    auto hasWork = [&] { return slot->ticket.load(std::memory_order_acquire) != seen; };
    std::shared_ptr<Job> job;
    if (!SpinUntil(hasWork)) {
      std::unique_lock<std::mutex> lock(slot->m);
      slot->bell.wait(lock, [&] { return stop_.load() || hasWork(); });
      if (stop_.load()) return;
    }
    {
      std::lock_guard<std::mutex> lock(slot->m);
      job = slot->job;
      seen = slot->ticket.load(std::memory_order_relaxed);
    }
    if (job && Work(*job)) {
      // Notify under the lock: the caller either sees the last chunk done in its predicate or is already waiting.
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
  // About four chunks per thread for the balance, none below the grain, borders on 64 elements so that no two
  // threads write one cache line.
  auto job = std::make_shared<Job>();
  const size_t align = n >= threads * 64 ? 64 : 1;
  const size_t perChunk = std::max(grain, (n + threads * 4 - 1) / (threads * 4));
  job->chunkElements = (perChunk + align - 1) / align * align;
  job->n = n;
  job->chunks = (n + job->chunkElements - 1) / job->chunkElements;
  job->body = &body;
  threads = std::min(threads, job->chunks);
  {
    std::lock_guard<std::mutex> lock(m_);
    EnsureWorkers(threads - 1);
  }
  ++jobs_;
  for (size_t index = 1; index < threads; ++index) {
    Slot& slot = *slots_[index - 1];
    {
      // Under the worker's lock: a worker checking its ticket before sleeping either sees the new job or is asleep
      // when the bell rings.
      std::lock_guard<std::mutex> lock(slot.m);
      slot.job = job;
      slot.ticket.store(jobs_, std::memory_order_release);
    }
    slot.bell.notify_one();
  }
  Work(*job);
  auto finished = [&] { return job->done.load(std::memory_order_acquire) == job->chunks; };
  if (!SpinUntil(finished)) {
    std::unique_lock<std::mutex> lock(m_);
    done_.wait(lock, finished);
  }
}

}  // namespace gpulab
