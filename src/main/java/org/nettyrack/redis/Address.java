package org.nettyrack.redis;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.HostAndPort;

/**
 * One server's host and port as a URL lists them ({@code host[:port]}, {@code [ipv6][:port]}):
 * a sentinel of a {@link SentinelUrl}, a seed node of a {@link ClusterUrl}.
 */
public record Address(String host, int port) {
    /**
     * A comma-separated list; IllegalArgumentException whose message is the reason alone
     * ("an empty sentinel address"), for the URL's parser to wrap. role names the servers.
     */
    static List<Address> list(String hosts, int defaultPort, String role) {
        List<Address> addresses = new ArrayList<>();
        for (String hostPort : hosts.split(",", -1)) {
            addresses.add(parse(hostPort.strip(), defaultPort, role));
        }
        return addresses;
    }

    private static Address parse(String hostPort, int defaultPort, String role) {
        if (hostPort.isEmpty()) {
            throw new IllegalArgumentException("an empty " + role + " address");
        }
        String host;
        String port = null;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("bad IPv6 address " + hostPort);
            }
            host = hostPort.substring(1, close);
            if (close + 1 < hostPort.length()) {
                if (hostPort.charAt(close + 1) != ':') {
                    throw new IllegalArgumentException("bad " + role + " address " + hostPort);
                }
                port = hostPort.substring(close + 2);
            }
        } else {
            int colon = hostPort.lastIndexOf(':');
            host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            port = colon < 0 ? null : hostPort.substring(colon + 1);
        }
        if (host.isEmpty() || !host.matches("[A-Za-z0-9._:%-]+")) {
            throw new IllegalArgumentException("bad " + role + " host in " + hostPort);
        }
        if (port == null) {
            return new Address(host, defaultPort);
        }
        if (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65_535) {
            throw new IllegalArgumentException("port " + port + " is not in 1..65535");
        }
        return new Address(host, Integer.parseInt(port));
    }

    HostAndPort hostAndPort() {
        return new HostAndPort(host, port);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
