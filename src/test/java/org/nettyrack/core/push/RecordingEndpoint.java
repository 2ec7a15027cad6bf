package org.nettyrack.core.push;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import org.nettyrack.core.PushConnection;
import org.nettyrack.core.PushEndpoint;

/**
 * An endpoint that writes down its callbacks ("open", "text:hi", "binary:..", "drained",
 * "shutdown", "close"); {@link #hook} runs after each one is recorded and may throw.
 * Public for the transport tests in org.nettyrack.netty.
 */
public final class RecordingEndpoint implements PushEndpoint {
    public final List<String> events = Collections.synchronizedList(new ArrayList<>());
    /** The data of each on_message, as given. */
    public final List<byte[]> messages = Collections.synchronizedList(new ArrayList<>());
    public volatile Consumer<String> hook = event -> { };
    /** The connection on_open was given. */
    public volatile PushConnection connection;

    private void record(String event) {
        events.add(event);
        hook.accept(event);
    }

    public long count(String event) {
        synchronized (events) {
            return events.stream().filter(event::equals).count();
        }
    }

    @Override
    public void onOpen(PushConnection connection) {
        this.connection = connection;
        record("open");
    }

    @Override
    public void onMessage(PushConnection connection, byte[] data, boolean text) {
        messages.add(data);
        record((text ? "text:" : "binary:") + new String(data, StandardCharsets.UTF_8));
    }

    @Override
    public void onDrained(PushConnection connection) {
        record("drained");
    }

    @Override
    public void onShutdown(PushConnection connection) {
        record("shutdown");
    }

    @Override
    public void onClose(PushConnection connection) {
        record("close");
    }
}
