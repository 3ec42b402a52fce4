import Glibc

/// Jobs run one at a time, in the order they were given, on a thread that exists only while there is work: the
/// thread starts with the first job and ends when none is left, so an idle window has no worker thread to wake
/// it (libdispatch's pool threads linger and wake up every second or so). Starting a POSIX thread costs tens of
/// microseconds, against jobs that parse a page, read a file or write the session.
package final class SerialWorker: @unchecked Sendable {
    private let name: String
    /// Guards `jobs`, `running`, `given` and `finished`; `progress` is signalled after every job.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let progress = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [@Sendable () -> Void] = []
    private var running = false
    private var given = 0
    private var finished = 0

    /// `name` names the thread for `top` and debuggers (15 bytes at most are kept).
    package init(name: String) {
        self.name = name
        pthread_mutex_init(lock, nil)
        pthread_cond_init(progress, nil)
    }

    deinit {
        pthread_cond_destroy(progress)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        progress.deallocate()
    }

    /// Runs `job` after every job given before it, on the worker's thread.
    package func async(_ job: @escaping @Sendable () -> Void) {
        _ = enqueue(job)
    }

    /// Runs `job` after every job given before it and returns once it has run.
    package func sync(_ job: @escaping @Sendable () -> Void) {
        let ticket = enqueue(job)
        pthread_mutex_lock(lock)
        while finished < ticket { pthread_cond_wait(progress, lock) }
        pthread_mutex_unlock(lock)
    }

    /// Queues `job`, starting the thread if none runs; returns how many jobs have been given, this one included.
    private func enqueue(_ job: @escaping @Sendable () -> Void) -> Int {
        pthread_mutex_lock(lock)
        jobs.append(job)
        given += 1
        let ticket = given
        let start = !running
        running = true
        pthread_mutex_unlock(lock)
        if start { startThread() }
        return ticket
    }

    private func startThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let worker = Unmanaged<SerialWorker>.fromOpaque(context!).takeRetainedValue()
            worker.drain()
            return nil
        }, context)
        guard status == 0 else {
            // No thread to be had (the process is at its limit): the jobs run here, in order, rather than never.
            Unmanaged<SerialWorker>.fromOpaque(context).release()
            drain()
            return
        }
        pthread_detach(thread)
    }

    /// The thread's loop: the next job while there is one, then the thread ends.
    private func drain() {
        String(name.utf8.prefix(15)).map { _ = setThreadName(pthread_self(), $0) }
        while true {
            pthread_mutex_lock(lock)
            guard !jobs.isEmpty else {
                running = false
                pthread_mutex_unlock(lock)
                return
            }
            let job = jobs.removeFirst()
            pthread_mutex_unlock(lock)
            job()
            pthread_mutex_lock(lock)
            finished += 1
            pthread_cond_broadcast(progress)
            pthread_mutex_unlock(lock)
        }
    }
}

/// glibc's pthread_setname_np(3), which the Glibc module leaves out (it needs _GNU_SOURCE).
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
