package org.nettyrack.core.push;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.Upgrade;

/** A transport that keeps what is sent ("text:hi" / "binary:..") and the tasks scheduled. */
final class FakePushConnection implements PushConnection {
    final Upgrade protocol;
    final List<String> sent = new ArrayList<>();
    final List<Runnable> scheduled = new ArrayList<>();
    /** Tasks given to the writer (null: none), run when a test says, as an I/O thread would later. */
    List<Runnable> writerTasks;
    boolean open = true;
    boolean shutdown;

    FakePushConnection(Upgrade protocol) {
        this.protocol = protocol;
    }

    @Override
    public Upgrade protocol() {
        return protocol;
    }

    @Override
    public boolean send(byte[] data, boolean text) {
        if (!open) {
            return false;
        }
        sent.add((text ? "text:" : "binary:") + new String(data, StandardCharsets.UTF_8));
        return true;
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public void shutdown() {
        shutdown = true;
        open = false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public int pending() {
        return open ? 0 : -1;
    }

    @Override
    public long timeoutMillis() {
        return 40_000;
    }

    @Override
    public void timeoutMillis(long millis) {
    }

    @Override
    public java.util.concurrent.Executor writer() {
        return writerTasks == null ? null : writerTasks::add;
    }

    @Override
    public void schedule(Runnable task) {
        scheduled.add(task);
    }
}
