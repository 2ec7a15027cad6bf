package org.nettyrack.jruby;

import java.util.function.Consumer;
import org.jruby.Ruby;

/**
 * Ends a JRuby runtime that nettyrack made beside the JVM's own (a web app's, or a reloaded
 * application's) so that nothing of it stays behind: at_exit blocks run and Ruby threads are
 * asked to stop ({@link Ruby#tearDown}), its own threads (its JIT compiler's among them) are
 * waited for, a few seconds at most, and what JRuby's Java integration left on shared Java
 * classes is taken back ({@link JavaBindingValues}).
 */
final class RuntimeTeardown {
    private static final long THREADS_WAIT_NANOS = 5_000_000_000L;

    private RuntimeTeardown() {
    }

    static void tearDown(Ruby runtime, Consumer<String> log) {
        String prefix = "Ruby-" + runtime.getRuntimeNumber() + "-";
        JavaBindingValues bound = JavaBindingValues.of(runtime, log);
        runtime.tearDown(false);
        awaitThreads(prefix);
        bound.release();
    }

    /**
     * Waits for the runtime's threads, which tearDown only asks to stop: a container checks
     * right after undeploy that the web app left no thread behind (Tomcat warns of a leak
     * otherwise), and a reload must not leave one per reload.
     */
    private static void awaitThreads(String prefix) {
        long deadline = System.nanoTime() + THREADS_WAIT_NANOS;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (!thread.getName().startsWith(prefix) || thread == Thread.currentThread()) {
                continue;
            }
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return;
            }
            try {
                thread.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
