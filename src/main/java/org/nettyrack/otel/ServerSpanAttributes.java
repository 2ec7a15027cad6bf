package org.nettyrack.otel;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanBuilder;
import java.util.Set;
import org.nettyrack.core.HostHeader;
import org.nettyrack.core.RackRequest;

/**
 * A server span's attributes, as OpenTelemetry's stable HTTP semantic conventions name them
 * (https://opentelemetry.io/docs/specs/semconv/http/http-spans/#http-server): the request's
 * method, path, query and scheme, the route when the application named one, the status and
 * body size answered, the protocol version, the server's address and port (from {@code Host},
 * else the local socket), the client's address and its user agent.
 */
final class ServerSpanAttributes {
    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> METHOD_ORIGINAL = AttributeKey.stringKey("http.request.method_original");
    static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
    static final AttributeKey<String> QUERY = AttributeKey.stringKey("url.query");
    static final AttributeKey<String> SCHEME = AttributeKey.stringKey("url.scheme");
    static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<Long> BODY_SIZE = AttributeKey.longKey("http.response.body.size");
    static final AttributeKey<String> PROTOCOL_VERSION = AttributeKey.stringKey("network.protocol.version");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    static final AttributeKey<String> CLIENT_ADDRESS = AttributeKey.stringKey("client.address");
    static final AttributeKey<String> USER_AGENT = AttributeKey.stringKey("user_agent.original");

    /** "The HTTP request method ... MUST be one of the methods defined in RFC 9110 or PATCH"; others are {@code _OTHER}. */
    private static final Set<String> KNOWN_METHODS =
        Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

    private ServerSpanAttributes() {
    }

    static boolean knownMethod(String method) {
        return KNOWN_METHODS.contains(method);
    }

    /** route: the application's, or null; status 0 (a full hijack) is left out. */
    static void set(SpanBuilder span, RackRequest request, String route, int status, long bytes) {
        String method = request.method();
        if (knownMethod(method)) {
            span.setAttribute(METHOD, method);
        } else {
            span.setAttribute(METHOD, "_OTHER");
            span.setAttribute(METHOD_ORIGINAL, method);
        }
        String target = request.target();
        int pathStart = pathStart(target);
        int query = target.indexOf('?', pathStart);
        span.setAttribute(PATH, query < 0 ? target.substring(pathStart) : target.substring(pathStart, query));
        if (query >= 0 && query + 1 < target.length()) {
            span.setAttribute(QUERY, target.substring(query + 1));
        }
        span.setAttribute(SCHEME, request.scheme());
        if (route != null && !route.isEmpty()) {
            span.setAttribute(ROUTE, route);
        }
        if (status > 0) {
            span.setAttribute(STATUS, (long) status);
        }
        span.setAttribute(BODY_SIZE, bytes);
        span.setAttribute(PROTOCOL_VERSION, protocolVersion(request.protocol()));
        server(span, request);
        String client = request.remoteAddress();
        if (client != null && !client.isEmpty()) {
            span.setAttribute(CLIENT_ADDRESS, client);
        }
        String agent = request.header("user-agent");
        if (agent != null) {
            span.setAttribute(USER_AGENT, agent);
        }
    }

    /** Where the path begins: 0 in origin form, after the authority in absolute form ({@code http://host/p}). */
    static int pathStart(String target) {
        int scheme = target.startsWith("/") ? -1 : target.indexOf("://");
        if (scheme < 0) {
            return 0;
        }
        int path = target.indexOf('/', scheme + 3);
        return path < 0 ? target.length() : path;
    }

    /** {@code HTTP/1.1} → {@code 1.1}; {@code HTTP/2.0} and {@code HTTP/2} → {@code 2}. */
    static String protocolVersion(String protocol) {
        String version = protocol.startsWith("HTTP/") ? protocol.substring(5) : protocol;
        return version.endsWith(".0") && !version.startsWith("1.") ? version.substring(0, version.length() - 2) : version;
    }

    /** "server.address: Host identifier of the client-facing server": Host's, else the socket's. */
    private static void server(SpanBuilder span, RackRequest request) {
        String host = request.header("host");
        if (host == null || host.isEmpty() || !HostHeader.valid(host)) {
            span.setAttribute(SERVER_ADDRESS, request.localAddress());
            span.setAttribute(SERVER_PORT, (long) request.localPort());
            return;
        }
        String name = HostHeader.name(host);
        span.setAttribute(SERVER_ADDRESS, name.startsWith("[") ? name.substring(1, name.length() - 1) : name);
        String port = HostHeader.port(host);
        if (port == null) {
            span.setAttribute(SERVER_PORT, "https".equals(request.scheme()) ? 443L : 80L);
        } else if (port.length() <= 5) { // digits, as Host's syntax says; more are no port
            span.setAttribute(SERVER_PORT, Long.parseLong(port));
        }
    }
}
