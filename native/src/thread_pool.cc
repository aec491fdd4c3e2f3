#include "thread_pool.h"

#include <algorithm>

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
    workers_.emplace_back([this, slot] { WorkerLoop(slot); });
  }
}

void ThreadPool::WorkerLoop(size_t slot) {
  uint64_t seen = 0;
  for (;;) {
    size_t n, chunks;
    const std::function<void(size_t, size_t)>* body;
    {
      std::unique_lock<std::mutex> lock(m_);
      wake_.wait(lock, [&] { return stop_ || (generation_ != seen && slot <= participants_); });
      if (stop_) return;
      seen = generation_;
      n = n_;
      chunks = chunks_;
      body = body_;
    }
    size_t b, e;
    ChunkRange(n, chunks, slot, &b, &e);
    if (b < e) (*body)(b, e);
    {
      std::lock_guard<std::mutex> lock(m_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

void ThreadPool::ParallelFor(size_t n, size_t threads, const std::function<void(size_t, size_t)>& body, size_t grain) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
  threads = std::clamp<size_t>(std::min(threads, (n + grain - 1) / grain), 1, kMaxThreads);
  std::unique_lock<std::mutex> owner(busy_, std::try_to_lock);
  if (threads == 1 || !owner.owns_lock()) {
    body(0, n);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(m_);
    EnsureWorkers(threads - 1);
    n_ = n;
    chunks_ = threads;
    body_ = &body;
    participants_ = threads - 1;
    pending_ = threads - 1;
    ++generation_;
  }
  wake_.notify_all();
  size_t b, e;
  ChunkRange(n, threads, 0, &b, &e);
  if (b < e) body(b, e);
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [&] { return pending_ == 0; });
}

}  // namespace gpulab
