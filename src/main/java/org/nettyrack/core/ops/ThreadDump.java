package org.nettyrack.core.ops;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.nettyrack.core.Json;
import org.nettyrack.core.Workers;

/**
 * Every JVM thread with its state and Java stack (from the ThreadMXBean), and for the threads
 * running Ruby, the Ruby backtrace too, as {@code GET /thread-backtraces} answers:
 * <pre>
 * {"ruby_backtraces":"included",
 *  "threads":[{"id":31,"name":"nettyrack-worker-1","state":"WAITING","daemon":true,
 *              "lock":"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@5e9f23b4",
 *              "java":["java.base/jdk.internal.misc.Unsafe.park(Native Method)", ...],
 *              "ruby":["config.ru:4:in 'pop'", ...]}, ...]}
 * </pre>
 * The Ruby part must be read on a worker thread (Ruby is entered nowhere else), so it is queued
 * on the workers and waited for at most a timeout; when every worker stays busy that long, the
 * answer still comes, with the Java stacks only and {@code ruby_backtraces} saying why.
 * {@code lock} (what a blocked or waiting thread waits on) and {@code ruby} appear only when
 * they apply.
 */
public final class ThreadDump {
    static final String INCLUDED = "included";

    private ThreadDump() {
    }

    /** Completes with the JSON on a worker, or on the JDK's timer thread after the timeout. */
    public static CompletableFuture<String> collect(Workers workers, Supplier<Map<Long, List<String>>> ruby,
                                                    long timeoutMillis) {
        CompletableFuture<Map<Long, List<String>>> backtraces = new CompletableFuture<>();
        try {
            workers.execute(() -> {
                if (backtraces.isDone()) {
                    return; // given up on already
                }
                try {
                    backtraces.complete(ruby.get());
                } catch (RuntimeException e) {
                    backtraces.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException stopped) {
            backtraces.completeExceptionally(stopped);
        }
        return backtraces.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
            .handle((found, failure) -> json(threads(), found, failure == null ? INCLUDED : unavailable(failure, timeoutMillis)));
    }

    /** The JVM's threads now, in id order. */
    static ThreadInfo[] threads() {
        ThreadInfo[] all = ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
        Arrays.sort(all, Comparator.comparingLong(ThreadInfo::getThreadId));
        return all;
    }

    static String json(ThreadInfo[] threads, Map<Long, List<String>> ruby, String rubyNote) {
        Json json = new Json().beginObject().name("ruby_backtraces").value(rubyNote).name("threads").beginArray();
        for (ThreadInfo t : threads) {
            json.beginObject()
                .name("id").value(t.getThreadId())
                .name("name").value(t.getThreadName())
                .name("state").value(t.getThreadState().name())
                .name("daemon").value(t.isDaemon());
            if (t.getLockName() != null) {
                json.name("lock").value(t.getLockName());
            }
            json.name("java").beginArray();
            for (StackTraceElement frame : t.getStackTrace()) {
                json.value(frame.toString());
            }
            json.endArray();
            List<String> backtrace = ruby == null ? null : ruby.get(t.getThreadId());
            if (backtrace != null) {
                json.name("ruby").beginArray();
                backtrace.forEach(json::value);
                json.endArray();
            }
            json.endObject();
        }
        return json.endArray().endObject().toString();
    }

    private static String unavailable(Throwable failure, long timeoutMillis) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (cause instanceof TimeoutException) {
            return "unavailable: no worker thread was free within " + timeoutMillis + " ms";
        }
        if (cause instanceof RejectedExecutionException) {
            return "unavailable: the worker threads have stopped";
        }
        return "unavailable: " + cause;
    }
}
