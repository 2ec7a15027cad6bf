package org.nettyrack.servlet;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.ResponseCycle;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;
import org.nettyrack.core.Upgrade;

/**
 * The core's {@link ResponseSink} over an {@link HttpServletResponse}, used from the door's
 * worker (the request async, or its container thread waiting). The container owns framing
 * (Content-Length when this sets one, chunked otherwise) and keep-alive; this sends no body for HEAD, 204 and 304 (a HEAD keeps its
 * Content-Length), and sets the status and the
 * application's headers (minus Transfer-Encoding and Content-Length, which it turns into the
 * container's own content length). A streamed head waits for the first body bytes, so a
 * failure before them can still become a 500; each write is flushed, so a body streams to the
 * client as it yields. An aborted response, or one shorter than its Content-Length, is
 * {@link #aborted}: {@link ServletDoor} then makes the container close the connection. An
 * accepted upgrade (WebSocket, SSE) is only recorded here, for {@link ServletDoor} to hand on.
 */
final class ServletResponseSink implements ResponseSink {
    private final HttpServletResponse response;
    private final boolean head;
    private final Upgrade upgrade;
    private ResponseHeaders acceptedHeaders;
    private int acceptedStatus;
    private PushEndpoint acceptedEndpoint;
    private int status;
    private ResponseHeaders headers;
    private final ResponseCycle cycle = new ResponseCycle();
    private boolean aborted;
    private OutputStream out;

    ServletResponseSink(HttpServletResponse response, boolean head, Upgrade upgrade) {
        this.response = response;
        this.head = head;
        this.upgrade = upgrade;
    }

    boolean aborted() {
        return aborted;
    }

    @Override
    public void respond(int status, ResponseHeaders headers, byte[] body, int offset, int length) {
        start(status, headers, length);
        boolean withBody = cycle.bodyAllowed() && length > 0;
        cycle.whole(withBody ? length : 0);
        try {
            apply();
            if (withBody) {
                response.getOutputStream().write(body, offset, length);
            }
        } catch (IOException e) {
            aborted = true; // the client has gone: nothing left to tell it
        }
    }

    @Override
    public void begin(int status, ResponseHeaders headers, long contentLength) {
        start(status, headers, contentLength);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (!cycle.bodyAllowed() || length == 0) {
            return;
        }
        OutputStream stream = commit();
        cycle.sent(length);
        stream.write(bytes, offset, length);
        stream.flush();
    }

    @Override
    public void sendFile(Path file, long offset, long length) throws IOException {
        if (!cycle.bodyAllowed() || length == 0) {
            return;
        }
        OutputStream stream = commit();
        WritableByteChannel target = Channels.newChannel(stream);
        try (FileChannel channel = FileChannel.open(file)) {
            long position = offset;
            long end = offset + length;
            while (position < end) {
                long n = channel.transferTo(position, end - position, target);
                if (n <= 0) {
                    throw new IOException("file " + file + " ended before " + end + " bytes");
                }
                position += n;
                cycle.sent(n);
            }
        }
        stream.flush();
    }

    @Override
    public void end() {
        if (!cycle.finish()) {
            return;
        }
        try {
            commit();
        } catch (IOException e) {
            aborted = true;
        }
        if (cycle.truncated()) {
            aborted = true;
        }
    }

    @Override
    public void abort() {
        cycle.finish();
        aborted = true;
    }

    /**
     * Records the accepted upgrade; {@link ServletDoor} hands it to the container once the
     * bridge has returned (the container switches protocols after the request thread is done).
     */
    @Override
    public void upgrade(int status, ResponseHeaders headers, PushEndpoint endpoint) {
        cycle.upgrade(upgrade);
        acceptedStatus = status;
        acceptedHeaders = headers;
        acceptedEndpoint = endpoint;
    }

    /** The status sent: an accepted upgrade's, the response's, or 0 when none was begun. */
    int statusSent() {
        return acceptedEndpoint != null ? acceptedStatus : status;
    }

    /** The body bytes written. */
    long bytesSent() {
        return cycle.bytesSent();
    }

    /** The endpoint of an accepted upgrade, or null. */
    PushEndpoint acceptedEndpoint() {
        return acceptedEndpoint;
    }

    /** The status the application answered an accepted upgrade with. */
    int acceptedStatus() {
        return acceptedStatus;
    }

    /** The headers the application answered an accepted upgrade with. */
    ResponseHeaders acceptedHeaders() {
        return acceptedHeaders;
    }

    @Override
    public boolean committed() {
        return cycle.committed();
    }

    @Override
    public boolean finished() {
        return cycle.finished();
    }

    private void start(int status, ResponseHeaders headers, long contentLength) {
        cycle.start(!ResponseSink.bodiless(status) && !head);
        this.status = status;
        this.headers = headers;
        cycle.declare(headers.contains("content-length") ? headers.contentLength() : contentLength);
    }

    /** Sends the head {@link #begin} recorded: from here on the response cannot be replaced. */
    private OutputStream commit() throws IOException {
        if (cycle.commit()) {
            apply();
        }
        if (out == null) {
            out = response.getOutputStream();
        }
        return out;
    }

    private void apply() throws IOException {
        response.setStatus(status);
        ServletHeaders.copy(response, status, headers);
        if (!ResponseSink.bodiless(status) && cycle.declaredLength() >= 0) {
            response.setContentLengthLong(cycle.declaredLength());
        }
    }
}
