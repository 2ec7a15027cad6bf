package org.nettyrack.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Lowers the CPU priority (raises the nice value) of the thread that calls {@link #apply}, on
 * Linux, where each thread has its own nice value. The worker pool runs it first thing on each
 * worker thread so that, while both want the cores, the JVM's JIT compiler threads (and the
 * event loops) get more of them than the threads running the application: warm-up is C2
 * compiling JRuby's code, and a worker that outruns the compiler only runs slow code for longer.
 * With nothing else to run, a niced thread still gets a whole core.
 *
 * <p>The thread's id comes from {@code /proc/thread-self}; the system call itself from a
 * {@link SetPriority} the caller supplies (the JDK has none: the jruby package makes it through
 * JRuby's POSIX layer). An unprivileged process can raise a nice value but not lower it again,
 * so a thread keeps it for life, and threads it starts inherit it (a Ruby Thread.new inside a
 * request runs at the workers' value). Where the call fails or /proc is missing (not Linux),
 * {@link #apply} does nothing more and says why once.
 */
public final class ThreadNice {
    /** setpriority(2) for one thread id: 0 on success, else the errno. */
    @FunctionalInterface
    public interface SetPriority {
        int setpriority(int tid, int nice);
    }

    private final int nice;
    private final SetPriority call;
    private final ErrorLog log;
    private volatile boolean warned;

    /**
     * nice: 0 (leave threads as started) to 19 (the lowest priority), as ServerConfig checks;
     * call: null when there is no way to make the call (a JVM without JRuby), and then nothing
     * is set.
     */
    public ThreadNice(int nice, SetPriority call, ErrorLog log) {
        this.nice = nice;
        this.call = call;
        this.log = log;
    }

    /**
     * Sets the calling thread's nice value; true if it is set (or there is nothing to set). A
     * thread already at that value or lower in priority (a hot restart's new process boots
     * niced, see {@link ProcessNice}) is left as it is: this only ever lowers a priority.
     */
    public boolean apply() {
        if (nice == 0 || call == null || ProcessNice.current() >= nice) {
            return true;
        }
        String why;
        try {
            int errno = call.setpriority(currentThreadId(), nice);
            if (errno == 0) {
                return true;
            }
            why = "setpriority failed (errno " + errno + ")";
        } catch (IOException | RuntimeException | LinkageError e) {
            why = e.toString();
        }
        if (!warned) {
            warned = true;
            log.log("worker threads keep their priority (worker nice " + nice + " not applied: " + why + ")");
        }
        return false;
    }

    /** The kernel's id of the calling thread: /proc/thread-self links to PID/task/TID. */
    static int currentThreadId() throws IOException {
        Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
        return Integer.parseInt(self.getFileName().toString());
    }
}
