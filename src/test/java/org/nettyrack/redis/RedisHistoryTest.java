package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nettyrack.redis.Inbox.bytes;
import static org.nettyrack.redis.Inbox.text;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nettyrack.core.push.HistoryLimits;
import org.nettyrack.core.push.PubSub.Message;
import org.nettyrack.core.push.Replay;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;

/** The history in Redis Streams, shared by two engines (two processes), against a real redis-server. */
@Timeout(120)
class RedisHistoryTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final HistoryLimits LIMITS = new HistoryLimits(3, 60_000, 1);

    private RedisServer redis;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<RedisPubSub> engines = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        redis = RedisServer.start();
    }

    @AfterEach
    void stop() throws Exception {
        engines.forEach(RedisPubSub::close);
        if (redis != null) {
            redis.close();
        }
    }

    private RedisPubSub engine(HistoryLimits limits) {
        RedisPubSub engine = RedisPubSub.builder(redis.url()).history(limits).backoff(20, 200).log(log::add).start();
        engines.add(engine);
        return engine;
    }

    /** Publishes on one engine and returns what a subscriber of the other heard, with its id. */
    private Message publish(RedisPubSub on, Inbox heard, String channel, String data) throws InterruptedException {
        on.publish(channel, bytes(data));
        Message message = heard.next();
        assertEquals(data, text(message));
        assertNotNull(message.id(), "a kept message carries its id");
        return message;
    }

    private static List<String> texts(Replay replay) {
        return replay.missed().stream().map(m -> new String(m.data(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aClientResumesOnAnyProcessFromTheIdItSawOnAnother() throws Exception {
        RedisPubSub a = engine(LIMITS);
        RedisPubSub b = engine(LIMITS);
        Inbox onB = new Inbox(WAIT);
        b.subscribe("chat", onB);
        b.live("chat").get(10, TimeUnit.SECONDS);
        Message first = publish(a, onB, "chat", "1");
        Message second = publish(a, onB, "chat", "2");
        Message third = publish(b, onB, "chat", "3");
        assertTrue(second.id().after(first.id()) && third.id().after(second.id()), "ids grow across processes");

        Replay replay = a.resume("chat", first.id().toString());
        assertEquals(Replay.Outcome.RESUMED, replay.outcome());
        assertEquals(List.of("2", "3"), texts(replay));
        assertEquals(List.of(second.id(), third.id()), replay.missed().stream().map(Message::id).toList());
        assertEquals(third.id().toString(), replay.head());
        assertEquals(List.of(), texts(b.resume("chat", third.id().toString())), "nothing missed");

        RedisPubSub restarted = engine(LIMITS); // a new process: the history is Redis's, not the process's
        assertEquals(List.of("3"), texts(restarted.resume("chat", second.id().toString())));
        assertEquals(List.of(), log);
    }

    @Test
    void aPositionOlderThanTheLastNIsResetAndAnIdNotOursToo() throws Exception {
        RedisPubSub a = engine(LIMITS);
        Inbox heard = new Inbox(WAIT);
        a.subscribe("chat", heard);
        a.live("chat").get(10, TimeUnit.SECONDS);
        Message first = publish(a, heard, "chat", "1");
        Message second = publish(a, heard, "chat", "2");
        for (String data : List.of("3", "4", "5")) {
            publish(a, heard, "chat", data);
        }
        assertEquals(Replay.Outcome.RESET, a.resume("chat", first.id().toString()).outcome(), "2 is gone");
        assertEquals(List.of("3", "4", "5"), texts(a.resume("chat", second.id().toString())), "2 gone, but seen");
        for (String position : List.of("garbage", "zzzz-1-0", first.id().epoch() + "-99999999999999-0")) {
            Replay replay = a.resume("chat", position);
            assertEquals(Replay.Outcome.RESET, replay.outcome(), position);
            assertNotNull(replay.head());
        }
        try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            assertEquals(3, jedis.xlen(RedisHistory.STREAM + "chat"), "the stream holds the last N");
            assertTrue(jedis.pttl(RedisHistory.STREAM + "chat") > 0, "and expires when the channel is quiet");
        }
    }

    @Test
    void anEmptiedRedisStartsANewEpoch() throws Exception {
        RedisPubSub a = engine(LIMITS);
        Inbox heard = new Inbox(WAIT);
        a.subscribe("chat", heard);
        a.live("chat").get(10, TimeUnit.SECONDS);
        Message before = publish(a, heard, "chat", "1");
        try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            jedis.flushAll();
        }
        Message after = publish(a, heard, "chat", "2");
        assertTrue(!after.id().sameEpoch(before.id()), "a new epoch: " + after.id());
        assertEquals(Replay.Outcome.RESET, a.resume("chat", before.id().toString()).outcome());
    }

    @Test
    void messagesPublishedWithoutHistoryArriveWithoutAnId() throws Exception {
        RedisPubSub kept = engine(LIMITS);
        RedisPubSub plain = engine(HistoryLimits.NONE);
        Inbox heard = new Inbox(WAIT);
        kept.subscribe("chat", heard);
        kept.live("chat").get(10, TimeUnit.SECONDS);
        plain.publish("chat", bytes("\0nr:not an envelope"));
        Message message = heard.next();
        assertEquals(null, message.id());
        assertEquals("\0nr:not an envelope", text(message));
        assertEquals(Replay.LIVE, plain.resume("chat", "x-1-0"), "an engine without history resumes nothing");
    }

    /**
     * A client that stayed connected while its process's link to Redis was down: the messages
     * published meanwhile come from the history once the link is back, in order, none twice.
     */
    @Test
    void aLinkThatDroppedCatchesUpFromTheHistory() throws Exception {
        RedisPubSub a = RedisPubSub.builder(redis.url()).history(LIMITS).backoff(500, 500).log(log::add).start();
        engines.add(a);
        RedisPubSub b = engine(LIMITS);
        Inbox heard = new Inbox(WAIT);
        a.subscribe("chat", heard);
        a.live("chat").get(10, TimeUnit.SECONDS);
        b.publish("chat", bytes("before"));
        assertEquals("before", text(heard.next()));

        try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            jedis.clientKill(ClientKillParams.clientKillParams().type(ClientType.PUBSUB));
        }
        for (String data : List.of("while", "the link", "was down")) {
            b.publish("chat", bytes(data)); // A reconnects only after 500 ms
        }
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            got.add(text(heard.next()));
        }
        assertEquals(List.of("while", "the link", "was down"), got);
        b.publish("chat", bytes("after"));
        assertEquals("after", text(heard.next()), "then live messages, none twice");
        assertEquals(null, heard.poll(200));
    }

    /** A gap longer than the history: one line, and the subscribers here are told. */
    @Test
    void aLinkDownLongerThanTheHistoryCoversIsSaidAndToldToTheSubscribers() throws Exception {
        RedisPubSub a = RedisPubSub.builder(redis.url()).history(LIMITS).backoff(1_000, 1_000).log(log::add).start();
        engines.add(a);
        RedisPubSub b = engine(LIMITS);
        Inbox heard = new Inbox(WAIT);
        a.subscribe("chat", heard);
        a.live("chat").get(10, TimeUnit.SECONDS);
        b.publish("chat", bytes("before"));
        assertEquals("before", text(heard.next()));

        try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            jedis.clientKill(ClientKillParams.clientKillParams().type(ClientType.PUBSUB));
        }
        for (int i = 1; i <= 5; i++) {
            b.publish("chat", bytes("missed " + i)); // 3 kept: 1 and 2 are gone before A is back
        }
        Inbox.await(WAIT, () -> !heard.gaps.isEmpty(), "the subscriber told of the gap: " + log);
        assertTrue(heard.gaps.get(0).matches("chat [a-z0-9]+-\\d+-\\d+"), heard.gaps.toString());
        assertTrue(log.stream().anyMatch(line -> line.contains("messages on chat published while the link was down "
            + "are no longer in the history")), log.toString());
    }

    /** Messages whose batch broke with the connection are not dropped: they go once Redis is back. */
    @Test
    void messagesPublishedWhileRedisIsDownAreKeptOnceItIsBack() throws Exception {
        RedisPubSub a = engine(LIMITS);
        Inbox heard = new Inbox(WAIT);
        a.subscribe("chat", heard);
        a.live("chat").get(10, TimeUnit.SECONDS);
        a.publish("chat", bytes("before"));
        assertEquals("before", text(heard.next()));

        redis.kill();
        for (String data : List.of("1", "2", "3")) {
            a.publish("chat", bytes(data)); // the first batch finds the old connection broken
        }
        Inbox.await(WAIT, () -> log.stream().anyMatch(line -> line.contains("lost Redis")), "the loss said: " + log);
        redis.restart();
        try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            Inbox.await(WAIT, () -> jedis.xlen(RedisHistory.STREAM + "chat") == 3, "all three kept in the new Redis");
            List<String> kept = jedis.xrange(RedisHistory.STREAM + "chat", (StreamEntryID) null,
                (StreamEntryID) null).stream().map(entry -> entry.getFields().get("d")).toList();
            assertEquals(List.of("1", "2", "3"), kept, "in order, once each");
        }
    }

    /** A message sent again (its reply was lost with a connection) that this Redis already has is not kept twice. */
    @Test
    void aMessageSentAgainIsKeptAndPublishedOnce() throws Exception {
        RedisHistory history = new RedisHistory(LIMITS, RedisHistory.Keys.ONE);
        PublishQueue.Outgoing first = new PublishQueue.Outgoing(bytes("chat"), bytes("1"), 1);
        PublishQueue.Outgoing second = new PublishQueue.Outgoing(bytes("chat"), bytes("2"), 2);
        try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            List<Object> replies = new ArrayList<>();
            for (PublishQueue.Outgoing message : List.of(first, second, first, second)) {
                replies.add(jedis.sendCommand(Protocol.Command.EVAL, history.keep(message)));
            }
            assertEquals(List.of("dup", "dup"), replies.subList(2, 4).stream().map(SentinelLookup::text).toList());
            assertEquals(2, jedis.xlen(RedisHistory.STREAM + "chat"));
        }
    }

    @Test
    void aRedisThatCannotBeAskedIsAResetSaidInOneLine() throws Exception {
        RedisPubSub a = engine(LIMITS);
        redis.kill();
        Replay replay = a.resume("chat", "abc-1-0");
        assertEquals(Replay.Outcome.RESET, replay.outcome());
        Inbox.await(WAIT, () -> log.stream().anyMatch(line -> line.contains("cannot read the history of chat")),
            "a line saying so: " + log);
    }
}
