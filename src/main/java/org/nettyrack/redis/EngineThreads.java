package org.nettyrack.redis;

import java.util.concurrent.TimeUnit;

/** The engines' threads: daemons (a server's exit never waits for Redis), joined by a deadline. */
final class EngineThreads {
    private EngineThreads() {
    }

    static Thread daemon(Runnable loop, String name) {
        Thread thread = new Thread(loop, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Waits for the thread to end, until deadline ({@link System#nanoTime}) at most. */
    static void join(Thread thread, long deadline) {
        try {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
