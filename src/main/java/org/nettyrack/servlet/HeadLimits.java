package org.nettyrack.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import org.nettyrack.core.HostHeader;
import org.nettyrack.core.config.ServerConfig;

/**
 * The Netty door's request-head limits, applied again behind the container's own parser, whose
 * limits are its own (Jetty's and Tomcat's default to 8 KiB of head and no field count):
 * {@code max-uri-length} on the request line (method, target, version) answers 414,
 * {@code max-header-size} on the header block (each field as {@code name: value}) and
 * {@code max-headers} on the number of fields answer 431. A {@code Host} the container let
 * through that is not a host and port ({@link HostHeader}) answers 400, as on the Netty door.
 * {@link ServletDoor} checks a request here before reading its body or letting the
 * application see it.
 */
final class HeadLimits {
    private final int maxRequestLine;
    private final int maxHeaderSize;
    private final int maxHeaders;

    HeadLimits(ServerConfig config) {
        this.maxRequestLine = config.limits().maxUriLength();
        this.maxHeaderSize = config.limits().maxHeaderSize();
        this.maxHeaders = config.limits().maxHeaders();
    }

    /** 0 when the request's head is within the limits, else the status to refuse it with. */
    int refusal(HttpServletRequest req) {
        String query = req.getQueryString();
        int line = req.getMethod().length() + 1 + req.getRequestURI().length()
            + (query == null ? 0 : query.length() + 1) + 1 + req.getProtocol().length();
        if (line > maxRequestLine) {
            return 414;
        }
        int fields = 0;
        long size = 0;
        for (String name : Collections.list(req.getHeaderNames())) {
            for (String value : Collections.list(req.getHeaders(name))) {
                fields++;
                size += name.length() + 2 + value.length();
            }
        }
        if (fields > maxHeaders || size > maxHeaderSize) {
            return 431;
        }
        String host = req.getHeader("Host");
        return host != null && !HostHeader.valid(host.trim()) ? 400 : 0;
    }
}
