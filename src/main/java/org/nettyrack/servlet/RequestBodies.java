package org.nettyrack.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.nettyrack.core.RequestBody;
import org.nettyrack.core.RequestBodyBuffer;
import org.nettyrack.core.config.ServerConfig;

/**
 * Reads a request body from the servlet input into the core's {@link RequestBodyBuffer}: in
 * memory up to {@code body-buffer}, in a temp file beyond, never past {@code max-body-size}
 * (the same limits as the Netty door). The container has already de-chunked it. A request the
 * door refuses before its body is read has the rest read and dropped ({@link #discardRest}),
 * at most {@code max-discard-size} of it.
 */
final class RequestBodies {
    private static final int CHUNK = 16 * 1024;
    /** Set once the door began to read a request's body (the container then sent any 100 Continue). */
    private static final String STARTED = RequestBodies.class.getName() + ".started";

    private RequestBodies() {
    }

    /** The whole body, or null when it is larger than allowed (the caller answers 413). */
    static RequestBody read(HttpServletRequest request, ServerConfig config) throws IOException {
        RequestBodyBuffer buffer = new RequestBodyBuffer(config.limits().bodyBufferSize(), config.limits().maxBodySize());
        long declared = request.getContentLengthLong();
        if (declared >= 0 && !buffer.accepts(declared)) {
            return null;
        }
        if (!hasBody(request)) {
            return RequestBody.EMPTY;
        }
        byte[] chunk = new byte[(int) Math.min(CHUNK, declared > 0 ? declared : CHUNK)];
        request.setAttribute(STARTED, Boolean.TRUE);
        boolean done = false;
        try {
            InputStream in = request.getInputStream();
            int n;
            while ((n = in.read(chunk)) != -1) {
                if (!buffer.append(ByteBuffer.wrap(chunk, 0, n))) {
                    return null;
                }
            }
            done = true;
            return buffer.finish();
        } finally {
            if (!done) {
                buffer.discard();
            }
        }
    }

    /**
     * Reads what is left of the body and drops it, before the door answers a request it refused
     * and closes the connection: a connection closed with bytes unread is reset (RST), and the
     * client, still sending, loses the answer with it. True when nothing of the body is left
     * unread: it ended within {@code bound} bytes, or it was never sent (a client that asked for
     * {@code 100 Continue} sends it only once the container says so, which it does when the body
     * is first read: unread, it gets the answer instead). False, without reading on, when the
     * body is longer (the declared length says so at once), or when the client went.
     */
    static boolean discardRest(HttpServletRequest request, long bound) {
        if (!hasBody(request) || (awaitsContinue(request) && request.getAttribute(STARTED) == null)) {
            return true;
        }
        long declared = request.getContentLengthLong();
        if (declared > bound) {
            return false; // what was read already only lowers the rest, never enough to matter here
        }
        byte[] chunk = new byte[CHUNK];
        long left = bound;
        try {
            InputStream in = request.getInputStream();
            int n;
            while ((n = in.read(chunk)) != -1) {
                left -= n;
                if (left < 0) {
                    return false;
                }
            }
            return true;
        } catch (IOException | IllegalStateException gone) {
            return false; // the client went, or the input is the app's reader's: nothing more to read
        }
    }

    private static boolean awaitsContinue(HttpServletRequest request) {
        String expect = request.getHeader("expect");
        return expect != null && expect.trim().equalsIgnoreCase("100-continue") && "HTTP/1.1".equals(request.getProtocol());
    }

    /** No body: no length or a zero one, and no chunks (RFC 9112 6.3); reading the input anyway upsets Jetty's upgrades. */
    private static boolean hasBody(HttpServletRequest request) {
        long declared = request.getContentLengthLong();
        return declared > 0 || (declared < 0 && request.getHeader("transfer-encoding") != null);
    }
}
