package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.Upgrade;

/** The client object's logic: how writes are framed and where subscribed messages go. */
class PushClientTest {
    private final LocalPubSub pubsub = new LocalPubSub();
    private final FakePushConnection ws = new FakePushConnection(Upgrade.WEBSOCKET);
    private final FakePushConnection sse = new FakePushConnection(Upgrade.SSE);
    private final List<String> handled = new ArrayList<>();
    private final PubSub.Subscriber handler = m -> handled.add(m.channel() + ":" + text(m.data()));

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void webSocketWritesKeepTheTextFlag() {
        PushClient client = new PushClient(ws, pubsub);
        assertTrue(client.write(utf8("hi"), true));
        assertTrue(client.write(utf8("raw"), false));
        assertEquals(List.of("text:hi", "binary:raw"), ws.sent);
    }

    @Test
    void sseWritesBecomeOneDataEvent() {
        PushClient client = new PushClient(sse, pubsub);
        assertTrue(client.write(utf8("a\nb"), false));
        assertEquals(List.of("text:data: a\ndata: b\n\n"), sse.sent, "events are text, whatever the data was");
    }

    @Test
    void writesReportAClosedConnection() {
        PushClient client = new PushClient(ws, pubsub);
        ws.close();
        assertFalse(client.write(utf8("late"), true));
        assertTrue(ws.sent.isEmpty());
    }

    @Test
    void sseEventsCarryTheirFields() {
        PushClient client = new PushClient(sse, pubsub);
        assertTrue(client.writeEvent("7", "tick", 3000, utf8("x")));
        assertEquals(List.of("text:id: 7\nevent: tick\nretry: 3000\ndata: x\n\n"), sse.sent);
    }

    @Test
    void eventFieldsOnAWebSocketAreRefused() {
        PushClient client = new PushClient(ws, pubsub);
        assertThrows(IllegalStateException.class, () -> client.writeEvent("7", null, -1, utf8("x")));
        assertTrue(ws.sent.isEmpty());
    }

    @Test
    void aPlainSubscriptionWritesMessagesStraightToTheClient() {
        PushClient client = new PushClient(ws, pubsub);
        client.subscribe("room", null);
        pubsub.publish("room", utf8("hello"));
        pubsub.publish("room", new byte[] {(byte) 0xFF});
        pubsub.publish("other", utf8("not subscribed"));
        assertEquals(List.of("text:hello", "binary:\uFFFD"), ws.sent, "text detected per message");
        assertTrue(ws.scheduled.isEmpty(), "no worker needed");
    }

    @Test
    void aPlainSseSubscriptionWritesDataEvents() {
        PushClient client = new PushClient(sse, pubsub);
        client.subscribe("room", null);
        pubsub.publish("room", utf8("hello"));
        assertEquals(List.of("text:data: hello\n\n"), sse.sent);
    }

    @Test
    void aSubscriptionWithAHandlerRunsItInCallbackOrder() {
        PushClient client = new PushClient(ws, pubsub);
        client.subscribe("room", handler);
        pubsub.publish("room", utf8("hello"));
        assertTrue(handled.isEmpty(), "not on the publisher's thread");
        assertTrue(ws.sent.isEmpty(), "the handler decides what to write");
        assertEquals(1, ws.scheduled.size());
        ws.scheduled.get(0).run();
        assertEquals(List.of("room:hello"), handled);
    }

    @Test
    void subscribingAgainReplacesTheSubscription() {
        PushClient client = new PushClient(ws, pubsub);
        client.subscribe("room", null);
        client.subscribe("room", handler);
        assertEquals(1, pubsub.subscribers("room"));
        pubsub.publish("room", utf8("hello"));
        assertTrue(ws.sent.isEmpty(), "the plain subscription is gone");
        assertEquals(1, ws.scheduled.size());
        ws.scheduled.forEach(Runnable::run);
        assertEquals(List.of("room:hello"), handled);
    }

    @Test
    void unsubscribeStopsDeliveryAndSaysWhetherItWasSubscribed() {
        PushClient client = new PushClient(ws, pubsub);
        client.subscribe("room", null);
        assertTrue(client.unsubscribe("room"));
        assertFalse(client.unsubscribe("room"));
        assertFalse(client.unsubscribe("never"));
        pubsub.publish("room", utf8("hello"));
        assertTrue(ws.sent.isEmpty());
        assertEquals(0, pubsub.subscribers("room"));
    }

    @Test
    void closedEndsEverySubscription() {
        PushClient client = new PushClient(ws, pubsub);
        client.subscribe("a", null);
        client.subscribe("b", handler);
        client.subscribe("c", null);
        client.closed();
        for (String channel : List.of("a", "b", "c")) {
            assertEquals(0, pubsub.subscribers(channel), channel);
            pubsub.publish(channel, utf8("x"));
        }
        assertTrue(ws.sent.isEmpty());
        assertTrue(ws.scheduled.isEmpty());
        assertFalse(client.unsubscribe("a"), "nothing left to unsubscribe");
    }

    @Test
    void subscribingAfterTheConnectionClosedDoesNothing() {
        PushClient client = new PushClient(ws, pubsub);
        ws.close();
        client.subscribe("room", null);
        client.subscribe("room", handler);
        assertEquals(0, pubsub.subscribers("room"));
        assertFalse(client.unsubscribe("room"));
    }

    @Test
    void publishGoesToEveryoneOnTheChannel() {
        PushClient alice = new PushClient(ws, pubsub);
        PushClient bob = new PushClient(sse, pubsub);
        alice.subscribe("room", null);
        bob.subscribe("room", null);
        alice.publish("room", utf8("hi"));
        assertEquals(List.of("text:hi"), ws.sent, "the publisher too, when subscribed");
        assertEquals(List.of("text:data: hi\n\n"), sse.sent);
    }

    /** An engine whose channels go live when the test says (Redis confirming a SUBSCRIBE). */
    private static final class SlowToConfirm implements PubSub {
        final LocalPubSub local = new LocalPubSub();
        final CompletableFuture<Void> confirmed = new CompletableFuture<>();

        @Override
        public void subscribe(String channel, Subscriber subscriber) {
            local.subscribe(channel, subscriber);
        }

        @Override
        public CompletableFuture<Void> live(String channel) {
            return confirmed;
        }

        @Override
        public void unsubscribe(String channel, Subscriber subscriber) {
            local.unsubscribe(channel, subscriber);
        }

        @Override
        public void publish(String channel, byte[] data) {
            local.publish(channel, data);
        }
    }

    @Test
    void subscribeReturnsOnceTheEngineConfirmedTheChannel() throws Exception {
        SlowToConfirm engine = new SlowToConfirm();
        PushClient client = new PushClient(ws, engine);
        CompletableFuture<Void> subscribing = CompletableFuture.runAsync(() -> client.subscribe("ticks", null));
        assertThrows(TimeoutException.class, () -> subscribing.get(200, TimeUnit.MILLISECONDS), "waits for the engine");
        assertEquals(1, engine.local.subscribers("ticks"), "subscribed locally meanwhile");
        engine.confirmed.complete(null);
        subscribing.get(10, TimeUnit.SECONDS);
    }
}
