package org.nettyrack.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where the Redis server is: {@code redis://[[user]:password@]host[:port][/db]}, or
 * {@code rediss://} for TLS. The port defaults to 6379, the database to 0. {@link #toString}
 * hides the password, so the URL can go into log lines.
 */
public record RedisUrl(String host, int port, String user, String password, int database, boolean tls) {
    public static final int DEFAULT_PORT = 6379;

    /** Parses a URL; IllegalArgumentException says what is wrong with it. */
    public static RedisUrl parse(String url) {
        boolean tls = url.startsWith("rediss://");
        if (!tls && !url.startsWith("redis://")) {
            throw invalid(url, "use redis://HOST[:PORT][/DB], or rediss:// for TLS");
        }
        if (url.length() == (tls ? 9 : 8)) {
            throw invalid(url, "no host");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw invalid(url, e.getReason());
        }
        if (uri.getHost() == null) {
            throw invalid(url, uri.getRawAuthority() == null ? "no host" : "bad host or port");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw invalid(url, "no ?query or #fragment allowed");
        }
        int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
        if (port < 1 || port > 65_535) {
            throw invalid(url, "port " + port + " is not in 1..65535");
        }
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
        String[] credentials = credentials(uri.getRawUserInfo());
        return new RedisUrl(host, port, credentials[0], credentials[1], database(url, uri.getPath()), tls);
    }

    /** [user, password]; either may be null ("redis://:secret@host" has only a password). */
    static String[] credentials(String userInfo) {
        if (userInfo == null) {
            return new String[] {null, null};
        }
        int colon = userInfo.indexOf(':');
        String user = colon < 0 ? null : decode(userInfo.substring(0, colon));
        String password = decode(colon < 0 ? userInfo : userInfo.substring(colon + 1));
        return new String[] {user == null || user.isEmpty() ? null : user, password};
    }

    private static int database(String url, String path) {
        if (path == null || path.isEmpty() || path.equals("/")) {
            return 0;
        }
        String db = path.substring(1);
        if (!db.matches("\\d{1,5}")) {
            throw invalid(url, "the path must be a database number, like /0");
        }
        return Integer.parseInt(db);
    }

    static String decode(String part) {
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static IllegalArgumentException invalid(String url, String why) {
        return new IllegalArgumentException("\"" + url + "\" is not a Redis URL (" + why + ")");
    }

    /** The URL with the password replaced by "***". */
    @Override
    public String toString() {
        String at = host.contains(":") ? "[" + host + "]" : host;
        return (tls ? "rediss://" : "redis://") + hiddenAuth(user, password) + at + ":" + port
            + (database == 0 ? "" : "/" + database);
    }

    /** "user:***@", ":***@", or "" without a password: the URL's credentials as a log may show them. */
    static String hiddenAuth(String user, String password) {
        return password == null ? "" : (user == null ? "" : user) + ":***@";
    }
}
