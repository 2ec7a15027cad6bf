package org.nettyrack.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import org.nettyrack.core.HeaderVisitor;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.RequestBody;
import org.nettyrack.core.RequestId;
import org.nettyrack.core.RequestStart;
import org.nettyrack.core.RequestTimes;
import org.nettyrack.core.Upgrade;

/**
 * An {@link HttpServletRequest} as the core's {@link RackRequest}: the raw request URI and query
 * as the target, where the door is mounted as {@code SCRIPT_NAME} (the context path, and a
 * servlet's own path below it; the rest of the path becomes {@code PATH_INFO}), the body already read ({@link RequestBodies}), and the servlet request
 * and response themselves as {@code java.servlet_request}/{@code java.servlet_response}, as
 * jruby-rack sets them.
 */
final class ServletRackRequest implements RackRequest {
    private final HttpServletRequest request;
    private final HttpServletResponse response;
    private final RequestBody body;
    private final String scriptName;
    private final Upgrade upgrade;
    private final boolean upgradeUnavailable;
    private final RequestTimes times;
    private final String requestId;

    /** {@code upgrades}: what the container can switch this request to. */
    ServletRackRequest(HttpServletRequest request, HttpServletResponse response, RequestBody body, String scriptName,
                       Upgrades upgrades) {
        this.times = new RequestTimes(System.nanoTime(), RequestStart.parseMicros(request.getHeader("x-request-start")));
        this.requestId = RequestId.of(Collections.list(request.getHeaders(RequestId.HEADER)));
        this.request = request;
        this.response = response;
        this.body = body;
        this.scriptName = scriptName;
        Upgrade asked = Upgrade.of(this);
        this.upgrade = upgrades.offered(request, asked);
        this.upgradeUnavailable = upgrades.unavailable(asked);
    }

    /** A WebSocket handshake in a container without WebSocket support ({@link Upgrades#unavailable}). */
    boolean upgradeUnavailable() {
        return upgradeUnavailable;
    }

    @Override
    public RequestTimes times() {
        return times;
    }

    @Override
    public String requestId() {
        return requestId;
    }

    @Override
    public String method() {
        return request.getMethod();
    }

    @Override
    public String target() {
        String query = request.getQueryString();
        return query == null ? request.getRequestURI() : request.getRequestURI() + "?" + query;
    }

    @Override
    public String scriptName() {
        return scriptName;
    }

    @Override
    public String protocol() {
        return request.getProtocol();
    }

    @Override
    public String scheme() {
        return request.getScheme();
    }

    @Override
    public void forEachHeader(HeaderVisitor visitor) {
        Enumeration<String> names = request.getHeaderNames();
        while (names.hasMoreElements()) {
            String name = names.nextElement();
            Enumeration<String> values = request.getHeaders(name);
            while (values.hasMoreElements()) {
                visitor.header(name, values.nextElement());
            }
        }
    }

    @Override
    public String header(String name) {
        return request.getHeader(name);
    }

    @Override
    public List<String> headers(String name) {
        return Collections.list(request.getHeaders(name));
    }

    @Override
    public String remoteAddress() {
        return request.getRemoteAddr();
    }

    @Override
    public int remotePort() {
        return request.getRemotePort();
    }

    @Override
    public String localAddress() {
        return request.getLocalAddr();
    }

    @Override
    public int localPort() {
        return request.getLocalPort();
    }

    @Override
    public RequestBody body() {
        return body;
    }

    /** {@link Upgrade#of}, less what the container cannot do ({@link Upgrades}: WebSocket needs its Jakarta WebSocket support). */
    @Override
    public Upgrade upgrade() {
        return upgrade;
    }

    @Override
    public Map<String, Object> transportEnv() {
        return Map.of("java.servlet_request", request, "java.servlet_response", response);
    }
}
