package org.nettyrack.core;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The nice values of this process's threads (on Linux each thread has its own), read from
 * {@code /proc} and set through a {@link ThreadNice.SetPriority}. A hot restart's new process
 * boots and warms up niced, so that the process it replaces, serving meanwhile, keeps the
 * cores first; once it serves, {@link #restore} brings its threads back to the values the old
 * process ran at. Lowering a nice value needs privilege (root, CAP_SYS_NICE, or RLIMIT_NICE,
 * systemd's LimitNICE); without it the threads keep theirs, and restore says how many.
 */
public final class ProcessNice {
    /** What /proc shows of a worker's name (15 bytes): the pool names them nettyrack-worker-N. */
    private static final String WORKER = "nettyrack-worke";

    private ProcessNice() {
    }

    /** The calling thread's nice value; 0 where /proc cannot tell. */
    public static int current() {
        try {
            return niceIn(ProcStat.read(Path.of("/proc/thread-self/stat")));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The nice field of a /proc stat line (the 19th; the name before it may hold spaces). */
    static int niceIn(String stat) {
        return Integer.parseInt(ProcStat.fields(stat)[16]);
    }

    /**
     * Sets every thread of this process to {@code base}, the workers to {@code workerNice}
     * when that is higher; returns how many threads could not be set (0: all were).
     */
    public static int restore(int base, int workerNice, ThreadNice.SetPriority call) {
        int failed = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(ProcStat.TASKS)) {
            for (Path task : tasks) {
                String name = ProcStat.read(task.resolve("comm")).strip();
                int target = name.startsWith(WORKER) ? Math.max(base, workerNice) : base;
                try {
                    if (niceIn(ProcStat.read(task.resolve("stat"))) != target
                        && call.setpriority(Integer.parseInt(task.getFileName().toString()), target) != 0) {
                        failed++;
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return failed;
    }
}
