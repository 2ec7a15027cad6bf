package org.nettyrack.core.reload;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseSink;

/**
 * The handler a door calls, in front of the version of the application that serves: one
 * volatile read and a count of running requests per request, and during a reload a
 * {@link Rollout} that shares new requests between the old version and the new one. Doors
 * know nothing of it; the reload (lib/nettyrack/app_reload.rb) calls {@link #begin}.
 *
 * <pre>
 * AppSwitch app = new AppSwitch(firstHandler);   // generation 1
 * new NettyServer(config, app, pubsub);
 * Rollout rollout = app.begin(reloadedHandler, canary);   // generation 2 on trial
 * </pre>
 */
public final class AppSwitch implements RackHandler {
    private final LongSupplier clockMillis;
    private final DoubleSupplier random;
    private volatile Generation current;
    private volatile Rollout rollout;

    public AppSwitch(RackHandler first) {
        this(first, () -> System.nanoTime() / 1_000_000L, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** With a clock in ms and a source of numbers in [0, 1) that pick each request's version. */
    AppSwitch(RackHandler first, LongSupplier clockMillis, DoubleSupplier random) {
        this.clockMillis = clockMillis;
        this.random = random;
        this.current = new Generation(first, 1);
    }

    @Override
    public void handle(RackRequest request, ResponseSink sink) {
        Rollout trial = rollout;
        if (trial == null) {
            current.handle(request, sink);
        } else {
            trial.route(request, sink);
        }
    }

    /**
     * Starts a rollout of {@code next}; throws IllegalStateException while one is under way.
     * Once it ends, the winner alone serves.
     */
    public synchronized Rollout begin(RackHandler next, Canary canary) {
        if (rollout != null) {
            throw new IllegalStateException("a reload is under way already");
        }
        Generation old = current;
        Rollout started = new Rollout(old, new Generation(next, old.number + 1), canary, clockMillis, random,
            this::settle);
        rollout = started;
        return started;
    }

    private synchronized void settle(Generation winner) {
        current = winner;
        rollout = null;
    }

    /** The serving version's handler (the old one while a rollout is under way). */
    public RackHandler handler() {
        return current.handler;
    }

    /** The serving version's number: 1 at boot, one more for each that took over. */
    public int generation() {
        return current.number;
    }

    /** The rollout under way; null when none is. */
    public Rollout rollout() {
        return rollout;
    }

    @Override
    public String runtimeVersion() {
        return current.handler.runtimeVersion();
    }

    @Override
    public Map<Long, List<String>> backtraces() {
        Map<Long, List<String>> all = new HashMap<>(current.handler.backtraces());
        Rollout trial = rollout;
        if (trial != null) {
            all.putAll(trial.nextHandler().backtraces());
        }
        return all;
    }
}
