package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

class LinkStatusTest {
    private final List<String> log = new ArrayList<>();
    private final LinkStatus status = new LinkStatus(RedisUrl.parse("redis://:secret@cache:6380/1"), log::add);

    @Test
    void logsOneLinePerOutageAndOneOnReturnWithoutThePassword() {
        status.up();
        status.lost(new JedisConnectionException("Unexpected end of stream."));
        status.lost(new JedisConnectionException("Failed to connect", new ConnectException("Connection refused")));
        status.up();
        status.up();
        assertEquals(List.of(
            "nettyrack: pubsub: lost Redis at redis://:***@cache:6380/1 (Unexpected end of stream); reconnecting",
            "nettyrack: pubsub: reconnected to redis://:***@cache:6380/1"), log);
    }

    @Test
    void saysCannotReachWhenRedisWasNeverThere() {
        status.lost(new JedisConnectionException("Failed to connect", new ConnectException("Connection refused")));
        status.up();
        assertEquals(List.of(
            "nettyrack: pubsub: cannot reach Redis at redis://:***@cache:6380/1 (Connection refused); retrying",
            "nettyrack: pubsub: connected to redis://:***@cache:6380/1"), log);
    }

    @Test
    void reportsItsStateForStats() {
        assertEquals("connecting", status.state());
        status.lost(new JedisConnectionException("refused"));
        assertEquals("down", status.state(), "down before it was ever up");
        status.up();
        assertEquals("up", status.state());
        status.lost(new JedisConnectionException("reset"));
        assertEquals("down", status.state());
    }

    @Test
    void aBrokenLogDoesNotStopTheEngine() {
        LinkStatus broken = new LinkStatus(RedisUrl.parse("redis://h"), line -> {
            throw new IllegalStateException("closed stream");
        });
        broken.lost(new JedisConnectionException(new IOException()));
        assertEquals(true, broken.isDown());
    }
}
