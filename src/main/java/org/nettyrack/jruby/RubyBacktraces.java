package org.nettyrack.jruby;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyThread;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * The Ruby backtrace ({@code Thread#backtrace}) of every live Ruby thread of one runtime, by the
 * id of the JVM thread under it: the main thread, threads the app started, and the worker
 * threads that have run Ruby. Called on a worker thread (never an event loop), for the control
 * endpoint's thread dump.
 */
final class RubyBacktraces {
    private final Ruby runtime;

    RubyBacktraces(Ruby runtime) {
        this.runtime = runtime;
    }

    Map<Long, List<String>> collect() {
        ThreadContext context = runtime.getCurrentContext();
        Map<Long, List<String>> byThread = new HashMap<>();
        for (RubyThread thread : runtime.getThreadService().getActiveRubyThreads()) {
            Thread jvmThread = thread.getNativeThread();
            if (jvmThread == null || jvmThread == Thread.currentThread()) {
                continue; // gone, or this worker, busy collecting
            }
            IRubyObject backtrace = thread.backtrace(context);
            if (backtrace instanceof RubyArray) {
                RubyArray<?> lines = (RubyArray<?>) backtrace;
                List<String> frames = new ArrayList<>(lines.getLength());
                for (int i = 0; i < lines.getLength(); i++) {
                    frames.add(lines.entry(i).toString());
                }
                byThread.put(jvmThread.getId(), frames);
            }
        }
        return byThread;
    }
}
