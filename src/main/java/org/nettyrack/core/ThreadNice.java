package org.nettyrack.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;

/**
 * Lowers the CPU priority (raises the nice value) of the thread that calls {@link #apply}, on
 * Linux, where each thread has its own nice value. The worker pool runs it first thing on each
 * worker thread so that, while both want the cores, the JVM's JIT compiler threads (and the
 * event loops) get more of them than the threads running the application: warm-up is C2
 * compiling JRuby's code, and a worker that outruns the compiler only runs slow code for longer.
 * With nothing else to run, a niced thread still gets a whole core.
 *
 * <p>The thread's id comes from {@code /proc/thread-self}, and {@code setpriority} from
 * jnr-posix, which JRuby ships. An unprivileged process can raise a nice value but not lower
 * it again, so a thread keeps it for life. Where any of this is missing (not Linux, no native
 * access), {@link #apply} does nothing and says why once.
 */
public final class ThreadNice {
    private static final int PRIO_PROCESS = 0; // with a thread id, Linux sets that thread alone

    private final int nice;
    private final ErrorLog log;
    private volatile boolean warned;

    /** nice: 0 (leave threads as started) to 19 (the lowest priority), as ServerConfig checks. */
    public ThreadNice(int nice, ErrorLog log) {
        this.nice = nice;
        this.log = log;
    }

    public int nice() {
        return nice;
    }

    /** Sets the calling thread's nice value; true if it is set (or there is nothing to set). */
    public boolean apply() {
        if (nice == 0) {
            return true;
        }
        String why;
        try {
            int tid = currentThreadId();
            if (Holder.POSIX.setpriority(PRIO_PROCESS, tid, nice) == 0) {
                return true;
            }
            why = "setpriority failed (errno " + Holder.POSIX.errno() + ")";
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

    /** Loaded on first use, so a missing jnr-posix is a LinkageError apply() reports. */
    private static final class Holder {
        static final POSIX POSIX = POSIXFactory.getNativePOSIX();
    }
}
