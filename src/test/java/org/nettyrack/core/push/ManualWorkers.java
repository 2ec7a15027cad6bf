package org.nettyrack.core.push;

import java.util.ArrayDeque;
import org.nettyrack.core.Workers;

/** Workers that only queue: the test decides when each task runs, on its own thread. */
final class ManualWorkers implements Workers {
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private boolean running;

    @Override
    public boolean submit(Runnable task) {
        tasks.add(task);
        return true;
    }

    int queued() {
        return tasks.size();
    }

    /** True while a task runs: callbacks can check they are on a "worker". */
    boolean running() {
        return running;
    }

    void runOne() {
        Runnable task = tasks.poll();
        if (task == null) {
            throw new AssertionError("no task queued");
        }
        running = true;
        try {
            task.run();
        } finally {
            running = false;
        }
    }

    /** Runs tasks, including those they queue, until none is left. */
    void runAll() {
        for (int i = 0; !tasks.isEmpty(); i++) {
            if (i > 100_000) {
                throw new AssertionError("tasks keep rescheduling themselves");
            }
            runOne();
        }
    }
}
