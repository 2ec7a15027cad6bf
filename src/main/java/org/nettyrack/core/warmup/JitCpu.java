package org.nettyrack.core.warmup;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.nettyrack.core.ProcStat;

/**
 * The CPU time the JIT's compiler threads (HotSpot's C1 and C2, JRuby's own) and the whole
 * process have used so far, for {@link WarmupProgress} to weigh one against the other: a
 * process that gets little CPU (niced, beside a busy old one in a hot restart) compiles little
 * per second of the clock while its compilers still take most of what it gets.
 *
 * <p>On Linux the compiler threads' time is read per thread from {@code /proc/self/task} (the
 * JVM names its native threads; the kernel keeps 15 characters); a thread that ended keeps its
 * last reading. Elsewhere the JIT's own compilation time stands in (elapsed, not CPU). The
 * process's time is the JVM's reading, or the clock's where it has none.
 *
 * <pre>
 * JitCpu.Meter meter = new JitCpu.Meter();
 * JitCpu now = meter.read();   // cumulative, in ms
 * </pre>
 */
public record JitCpu(long compilerMillis, long processMillis) {
    /** Linux's USER_HZ: the unit of a thread's times in its stat file. */
    private static final long MILLIS_PER_TICK = 10;

    /** Whether a native thread name is one of the JIT's. */
    static boolean isCompiler(String comm) {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")
            || comm.matches("Ruby-\\d+-JIT-\\d+.*");
    }

    /** A thread's user plus system time, in clock ticks, from its stat line (the name may hold spaces and parentheses). */
    static long ticks(String stat) {
        String[] fields = ProcStat.fields(stat);
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14 and 15 of the line
    }

    /** Reads the times; keeps what threads that have ended used. One caller at a time. */
    public static final class Meter {
        private final Map<String, Long> compilerTicks = new HashMap<>();
        private final long startNanos = System.nanoTime();
        private final boolean perThread = Files.isDirectory(ProcStat.TASKS);
        private long endedTicks;

        public JitCpu read() {
            return new JitCpu(perThread ? compilerMillisFromProc() : compilationMillis(), processMillis());
        }

        private long compilerMillisFromProc() {
            Map<String, Long> now = new HashMap<>();
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(ProcStat.TASKS)) {
                for (Path task : tasks) {
                    try {
                        if (isCompiler(ProcStat.read(task.resolve("comm")).strip())) {
                            now.put(task.getFileName().toString(), ticks(ProcStat.read(task.resolve("stat"))));
                        }
                    } catch (IOException | RuntimeException e) {
                        // the thread ended between the listing and the read
                    }
                }
            } catch (IOException e) {
                return compilationMillis();
            }
            compilerTicks.forEach((tid, ticks) -> {
                if (!now.containsKey(tid)) {
                    endedTicks += ticks;
                }
            });
            compilerTicks.clear();
            compilerTicks.putAll(now);
            long total = endedTicks;
            for (long ticks : now.values()) {
                total += ticks;
            }
            return total * MILLIS_PER_TICK;
        }

        private long processMillis() {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                long nanos = os.getProcessCpuTime();
                if (nanos >= 0) {
                    return nanos / 1_000_000L;
                }
            }
            return (System.nanoTime() - startNanos) / 1_000_000L;
        }

        private static long compilationMillis() {
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
        }
    }
}
