package org.nettyrack.servlet;

import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Text messages and the close a WebSocket client received, in order. */
final class Messages implements WebSocket.Listener {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private final StringBuilder partial = new StringBuilder();
    private final boolean reading;

    Messages() {
        this(true);
    }

    /** {@code reading}: false for a client that reads nothing until the test calls request(). */
    Messages(boolean reading) {
        this.reading = reading;
    }

    @Override
    public void onOpen(WebSocket socket) {
        if (reading) {
            socket.request(1);
        }
    }

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            received.add(partial.toString());
            partial.setLength(0);
        }
        if (reading) {
            socket.request(1);
        }
        return null;
    }

    @Override
    public CompletionStage<?> onPing(WebSocket socket, java.nio.ByteBuffer message) {
        received.add("ping");
        socket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
        received.add("closed " + status);
        return null;
    }

    @Override
    public void onError(WebSocket socket, Throwable error) {
        received.add("error " + error);
    }

    String next() throws InterruptedException {
        String message = received.poll(30, TimeUnit.SECONDS);
        return message == null ? "nothing within 30 s" : message;
    }
}
