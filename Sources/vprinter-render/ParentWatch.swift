import Foundation
import Glibc

/// Ends the worker as soon as the printer that started it is gone (killed, crashed): the printer reads the
/// worker's standard output through a pipe, and a pipe whose reading end has closed reports POLLERR to its
/// writer. A Ghostscript child (PostScript jobs) is in the worker's process group and ends with it. Without this,
/// a worker of a killed printer goes on writing page images into a job folder that the next run of the printer is
/// rendering again (docs/render-protocol.md).
enum ParentWatch {
    /// Watches standard output on a thread of its own; does nothing when it is not a pipe or socket.
    static func start() {
        let thread = Thread {
            var watched = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while true {
                let ready = poll(&watched, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0, watched.revents & Int16(POLLNVAL) == 0 else { return }
                if watched.revents & Int16(POLLERR | POLLHUP) != 0 {
                    // The worker leads its own process group (main.swift): end its Ghostscript with it.
                    if getpgrp() == getpid() { kill(0, SIGKILL) }
                    _exit(3)
                }
            }
        }
        thread.start()
    }
}
