package org.nettyrack.redis;

import java.util.List;

/**
 * Where a Redis Cluster is: {@code redis-cluster://[[user]:password@]host[:port][,host[:port]...]},
 * seed nodes from which the engine reads the cluster's layout (any one reachable node is
 * enough; more are a fallback). The port defaults to 6379; a cluster has database 0 only, so
 * there is no path. {@link #toString} hides the password.
 */
public record ClusterUrl(List<Address> seeds, String user, String password) {
    public static final String SCHEME = "redis-cluster://";

    public ClusterUrl {
        seeds = List.copyOf(seeds);
    }

    /** Parses a URL; IllegalArgumentException says what is wrong with it. */
    public static ClusterUrl parse(String url) {
        if (!url.startsWith(SCHEME)) {
            throw invalid(url, "use " + SCHEME + "HOST[:PORT][,HOST[:PORT]...]");
        }
        String rest = url.substring(SCHEME.length());
        if (rest.contains("?") || rest.contains("#")) {
            throw invalid(url, "no ?query or #fragment allowed");
        }
        if (rest.contains("/")) {
            throw invalid(url, "no /DB: a cluster has database 0 only");
        }
        if (rest.isEmpty()) {
            throw invalid(url, "no seed node");
        }
        int at = rest.lastIndexOf('@');
        String[] credentials = RedisUrl.credentials(at < 0 ? null : rest.substring(0, at));
        try {
            return new ClusterUrl(Address.list(rest.substring(at + 1), RedisUrl.DEFAULT_PORT, "seed node"),
                credentials[0], credentials[1]);
        } catch (IllegalArgumentException e) {
            throw invalid(url, e.getMessage());
        }
    }

    private static IllegalArgumentException invalid(String url, String why) {
        return new IllegalArgumentException("\"" + url + "\" is not a Redis Cluster URL (" + why + ")");
    }

    /** The URL with the password replaced by "***". */
    @Override
    public String toString() {
        List<String> hosts = seeds.stream().map(Address::toString).toList();
        return SCHEME + RedisUrl.hiddenAuth(user, password) + String.join(",", hosts);
    }
}
