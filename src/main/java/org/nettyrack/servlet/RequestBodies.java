package org.nettyrack.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.nettyrack.core.RequestBody;
import org.nettyrack.core.RequestBodyBuffer;
import org.nettyrack.core.ServerConfig;

/**
 * Reads a request body from the servlet input into the core's {@link RequestBodyBuffer}: in
 * memory up to {@code body-buffer}, in a temp file beyond, never past {@code max-body-size}
 * (the same limits as the Netty door). The container has already de-chunked it.
 */
final class RequestBodies {
    private static final int CHUNK = 16 * 1024;

    private RequestBodies() {
    }

    /** The whole body, or null when it is larger than allowed (the caller answers 413). */
    static RequestBody read(HttpServletRequest request, ServerConfig config) throws IOException {
        RequestBodyBuffer buffer = new RequestBodyBuffer(config.limits().bodyBufferSize(), config.limits().maxBodySize());
        long declared = request.getContentLengthLong();
        if (declared >= 0 && !buffer.accepts(declared)) {
            return null;
        }
        if (declared == 0 || (declared < 0 && request.getHeader("transfer-encoding") == null)) {
            return RequestBody.EMPTY; // no body (RFC 9112 6.3); reading the input anyway upsets Jetty's upgrades
        }
        byte[] chunk = new byte[(int) Math.min(CHUNK, declared > 0 ? declared : CHUNK)];
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
}
