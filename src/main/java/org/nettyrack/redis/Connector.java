package org.nettyrack.redis;

import java.util.List;
import java.util.function.Supplier;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Opens the engine's Jedis connections to the Redis master: the one a {@link RedisUrl} names,
 * or the one a {@link SentinelUrl}'s sentinels name now ({@link SentinelLookup}), which must
 * then say it is a master ({@code ROLE}), so that a connection never lands on a replica just
 * demoted; or, for a {@link ClusterUrl}, to whichever node of the cluster is asked for. Connected, authenticated and on the URL's database when returned, speaking RESP2
 * (whose pub/sub replies Jedis' blocking subscribe loop reads). Connect and command timeouts
 * are bounded; so is the subscriber's wait for its next message, which the writer's periodic
 * PING keeps from running out.
 */
final class Connector {
    private final Supplier<HostAndPort> master;
    private final boolean checkRole;
    private final JedisClientConfig config;

    private Connector(Supplier<HostAndPort> master, boolean checkRole, JedisClientConfig config) {
        this.master = master;
        this.checkRole = checkRole;
        this.config = config;
    }

    static Connector to(RedisUrl url, int timeoutMillis, int subscriberTimeoutMillis) {
        HostAndPort at = new HostAndPort(url.host(), url.port());
        return new Connector(() -> at, false, config("nettyrack-pubsub", url.user(), url.password(), url.database(),
            url.tls(), timeoutMillis, subscriberTimeoutMillis));
    }

    /** status: where a change of master is said. */
    static Connector through(SentinelUrl url, int timeoutMillis, int subscriberTimeoutMillis, LinkStatus status) {
        JedisClientConfig sentinels = config("nettyrack-pubsub-lookup", null, null, 0, false, timeoutMillis, timeoutMillis);
        SentinelLookup lookup = new SentinelLookup(url, sentinels, status);
        return new Connector(lookup::master, true, config("nettyrack-pubsub", url.user(), url.password(), url.database(),
            false, timeoutMillis, subscriberTimeoutMillis));
    }

    /** Connections to the nodes of a cluster ({@link #connect(HostAndPort)}), with its URL's credentials. */
    static Connector toCluster(ClusterUrl url, int timeoutMillis, int subscriberTimeoutMillis) {
        return new Connector(() -> {
            throw new IllegalStateException("a cluster has no one master: connect to a node");
        }, false, config("nettyrack-pubsub", url.user(), url.password(), 0, false, timeoutMillis, subscriberTimeoutMillis));
    }

    private static JedisClientConfig config(String name, String user, String password, int database, boolean tls,
                                            int timeoutMillis, int subscriberTimeoutMillis) {
        DefaultJedisClientConfig.Builder builder = DefaultJedisClientConfig.builder()
            .resp2()
            .clientName(name)
            .clientSetInfoConfig(ClientSetInfoConfig.DISABLED)
            .connectionTimeoutMillis(timeoutMillis)
            .socketTimeoutMillis(timeoutMillis)
            .blockingSocketTimeoutMillis(subscriberTimeoutMillis)
            .database(database)
            .ssl(tls);
        if (password != null) {
            builder.user(user).password(password);
        }
        return builder.build();
    }

    /** A new connection to the master; JedisException (a RuntimeException) when it cannot be had. */
    Connection connect() {
        HostAndPort at = master.get();
        Connection connection = connect(at);
        if (checkRole) {
            try {
                requireMaster(connection, at);
            } catch (RuntimeException e) {
                connection.close();
                throw e;
            }
        }
        return connection;
    }

    /** A new connection to the node at {@code at}; JedisException when it cannot be had. */
    NodeConnection connect(HostAndPort at) {
        return new NodeConnection(at, config);
    }

    /** A connection that can send one command at once while another thread reads its replies. */
    static final class NodeConnection extends Connection {
        NodeConnection(HostAndPort at, JedisClientConfig config) {
            super(at, config);
        }

        /** Writes and flushes the command; its reply is read elsewhere. */
        void send(Protocol.Command command, byte[]... args) {
            sendCommand(command, args);
            flush();
        }

        /** Sends what commands wrote so far, without reading a reply. */
        void flushCommands() {
            flush();
        }
    }

    private static void requireMaster(Connection connection, HostAndPort at) {
        Object reply = connection.executeCommand(new CommandArguments(Protocol.Command.ROLE));
        Object role = reply instanceof List<?> parts && !parts.isEmpty() ? parts.get(0) : null;
        String name = SentinelLookup.text(role);
        if (!"master".equals(name)) {
            throw new JedisConnectionException(at + " is a " + name + ", not the master (yet)");
        }
    }
}
