package org.nettyrack.redis;

import java.util.List;

/**
 * Where a Redis master is, as Redis Sentinel knows it:
 * {@code redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/master-name[/db]}.
 * The sentinels' port defaults to 26379, the database to 0; user and password are the
 * master's (the sentinels are asked without). {@link #toString} hides the password.
 */
public record SentinelUrl(List<Address> sentinels, String master, String user, String password, int database) {
    public static final String SCHEME = "redis-sentinel://";
    public static final int DEFAULT_PORT = 26379;

    public SentinelUrl {
        sentinels = List.copyOf(sentinels);
    }

    /** Parses a URL; IllegalArgumentException says what is wrong with it. */
    public static SentinelUrl parse(String url) {
        if (!url.startsWith(SCHEME)) {
            throw invalid(url, "use " + SCHEME + "HOST[:PORT][,HOST[:PORT]...]/MASTER-NAME[/DB]");
        }
        String rest = url.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        if (slash < 0) {
            throw invalid(url, "no master name: add /MASTER-NAME after the sentinels");
        }
        String authority = rest.substring(0, slash);
        String path = rest.substring(slash + 1);
        if (path.contains("?") || path.contains("#")) {
            throw invalid(url, "no ?query or #fragment allowed");
        }
        int at = authority.lastIndexOf('@');
        String[] credentials = RedisUrl.credentials(at < 0 ? null : authority.substring(0, at));
        List<Address> sentinels;
        try {
            sentinels = Address.list(authority.substring(at + 1), DEFAULT_PORT, "sentinel");
        } catch (IllegalArgumentException e) {
            throw invalid(url, e.getMessage());
        }
        String[] segments = path.split("/", -1);
        if (segments.length > 2 || segments[0].isEmpty()) {
            throw invalid(url, "the path must be /MASTER-NAME or /MASTER-NAME/DB");
        }
        int database = 0;
        if (segments.length == 2) {
            if (!segments[1].matches("\\d{1,5}")) {
                throw invalid(url, "the database must be a number, like /mymaster/0");
            }
            database = Integer.parseInt(segments[1]);
        }
        return new SentinelUrl(sentinels, RedisUrl.decode(segments[0]), credentials[0], credentials[1], database);
    }

    private static IllegalArgumentException invalid(String url, String why) {
        return new IllegalArgumentException("\"" + url + "\" is not a Redis Sentinel URL (" + why + ")");
    }

    /** The URL with the password replaced by "***". */
    @Override
    public String toString() {
        List<String> hosts = sentinels.stream().map(Address::toString).toList();
        return SCHEME + RedisUrl.hiddenAuth(user, password) + String.join(",", hosts) + "/" + master
            + (database == 0 ? "" : "/" + database);
    }
}
