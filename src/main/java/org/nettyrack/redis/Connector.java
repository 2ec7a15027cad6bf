package org.nettyrack.redis;

import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;

/**
 * Opens the engine's Jedis connections to one {@link RedisUrl}: connected, authenticated and
 * on the URL's database when returned, speaking RESP2 (whose pub/sub replies Jedis' blocking
 * subscribe loop reads). Connect and command timeouts are bounded; so is the subscriber's
 * wait for its next message, which the writer's periodic PING keeps from running out.
 */
final class Connector {
    private final RedisUrl url;
    private final JedisClientConfig config;

    Connector(RedisUrl url, int timeoutMillis, int subscriberTimeoutMillis) {
        this.url = url;
        DefaultJedisClientConfig.Builder builder = DefaultJedisClientConfig.builder()
            .resp2()
            .clientName("nettyrack-pubsub")
            .clientSetInfoConfig(ClientSetInfoConfig.DISABLED)
            .connectionTimeoutMillis(timeoutMillis)
            .socketTimeoutMillis(timeoutMillis)
            .blockingSocketTimeoutMillis(subscriberTimeoutMillis)
            .database(url.database())
            .ssl(url.tls());
        if (url.password() != null) {
            builder.user(url.user()).password(url.password());
        }
        this.config = builder.build();
    }

    /** A new connection; JedisException (a RuntimeException) when Redis cannot be had. */
    Connection connect() {
        return new Connection(new HostAndPort(url.host(), url.port()), config);
    }

    RedisUrl url() {
        return url;
    }
}
