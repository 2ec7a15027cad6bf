package org.nettyrack.core.config;

import java.util.List;
import java.util.Map;

/**
 * One listener: scheme {@code tcp} or {@code ssl} with host and port (port 0 asks the OS
 * for a free one), or {@code unix} with a socket path. params are the bind URI's query
 * ({@code cert}, {@code key}, {@code mode}...), read by the transport that serves the scheme.
 */
public record Bind(String scheme, String host, int port, String path, Map<String, String> params) {
    public static final List<String> SCHEMES = List.of("tcp", "ssl", "unix");

    public Bind {
        params = Map.copyOf(params);
    }

    /** A cleartext {@code tcp://host:port} listener. */
    public Bind(String host, int port) {
        this("tcp", host, port, null, Map.of());
    }

    /** The same listener on another port (a port 0 once bound). */
    public Bind withPort(int boundPort) {
        return new Bind(scheme, host, boundPort, path, params);
    }

    public String url() {
        if ("unix".equals(scheme)) {
            return "unix://" + path;
        }
        return ("ssl".equals(scheme) ? "https" : "http") + "://"
            + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    public void check() {
        Check.that(SCHEMES.contains(scheme), "bind scheme must be one of " + SCHEMES + ", got " + scheme);
        if ("unix".equals(scheme)) {
            Check.that(path != null && !path.isEmpty(), "unix bind path must not be empty");
            String mode = params.get("mode");
            Check.that(mode == null || mode.matches("0?[0-7]{3}"),
                "unix bind mode must be octal permissions such as 0660, got " + mode);
            String backlog = params.get("backlog");
            Check.that(backlog == null || backlog.matches("[1-9][0-9]{0,4}") && Integer.parseInt(backlog) <= 65535,
                "unix bind backlog must be 1..65535, got " + backlog);
            return;
        }
        Check.that(host != null && !host.isEmpty(), "bind host must not be empty");
        Check.that(port >= 0 && port <= 65535, "port must be 0..65535, got " + port);
    }
}
