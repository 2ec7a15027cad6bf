package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.Upgrade;

/** A subscription that resumes from an id, through the client object: order, no duplicates, the reset. */
class ResumptionTest {
    private final LocalPubSub history = new LocalPubSub(ErrorLog.stderr(), new HistoryLimits(3, 60_000, 100));
    private final FakePushConnection sse = new FakePushConnection(Upgrade.SSE);
    private final List<String> ids = new ArrayList<>();

    private String publish(String channel, String data) {
        PubSub.Subscriber spy = m -> ids.add(m.id().toString());
        history.subscribe(channel, spy);
        history.publish(channel, data.getBytes(StandardCharsets.UTF_8));
        history.unsubscribe(channel, spy);
        return ids.get(ids.size() - 1);
    }

    private static String event(String id, String data) {
        return "text:id: " + id + "\ndata: " + data + "\n\n";
    }

    @Test
    void anEventStreamGetsWhatItMissedWithIdsThenLiveMessages() {
        String seen = publish("a", "1");
        String two = publish("a", "2");
        String three = publish("a", "3");
        PushClient client = new PushClient(sse, history);
        assertEquals(Replay.Outcome.RESUMED, client.subscribe("a", null, seen));
        String four = publish("a", "4");
        assertEquals(List.of(event(two, "2"), event(three, "3"), event(four, "4")), sse.sent);
    }

    @Test
    void aMessagePublishedWhileTheHistoryIsReadComesOnceInOrder() {
        String seen = publish("a", "1");
        publish("a", "2");
        // The live message lands after the subscription and before the read: it is held, and in the replay too.
        PubSub racing = new Racing(history, true);
        PushClient client = new PushClient(sse, racing);
        client.subscribe("a", null, seen);
        assertEquals(List.of("2", "live"), data(sse.sent));

        // ... or after the read: held only, and handed on after the replay.
        FakePushConnection other = new FakePushConnection(Upgrade.SSE);
        new PushClient(other, new Racing(history, false)).subscribe("a", null, seen);
        assertEquals(List.of("2", "live", "live"), data(other.sent), "the replay, then the one published during it");
    }

    @Test
    void aPositionBeyondTheHistoryGetsAResetEventWithTheNewestId() {
        String seen = publish("a", "1");
        publish("a", "2");
        publish("a", "3");
        publish("a", "4");
        String five = publish("a", "5");
        PushClient client = new PushClient(sse, history);
        assertEquals(Replay.Outcome.RESET, client.subscribe("a", null, seen));
        assertEquals(List.of("text:id: " + five + "\nevent: reset\ndata: a\n\n"), sse.sent);
        String six = publish("a", "6");
        assertEquals(event(six, "6"), sse.sent.get(1));
    }

    @Test
    void aGapTheEngineCannotFillReachesAPlainEventStreamAsAResetEvent() {
        PushClient client = new PushClient(sse, history);
        client.subscribe("a", null, null);
        FakePushConnection ws = new FakePushConnection(Upgrade.WEBSOCKET);
        new PushClient(ws, history).subscribe("a", null, null);
        history.gap("a", "ep-1-0");
        assertEquals(List.of("text:id: ep-1-0\nevent: reset\ndata: a\n\n"), sse.sent);
        assertEquals(List.of(), ws.sent, "a WebSocket's app speaks its own protocol: nothing is written for it");
    }

    @Test
    void theResetAndTheReplayAreSentAtOnceSoAnAppThatClosesRightAfterSubscribingStillSendsThem() {
        String seen = publish("a", "1");
        publish("a", "2");
        publish("a", "3");
        publish("a", "4");
        publish("a", "5");
        sse.writerTasks = new ArrayList<>(); // the connection's I/O thread runs nothing yet
        PushClient client = new PushClient(sse, history);
        assertEquals(Replay.Outcome.RESET, client.subscribe("a", null, seen));
        sse.send("one".getBytes(StandardCharsets.UTF_8), true); // what the app's on_open writes, then closes
        sse.close();
        sse.writerTasks.forEach(Runnable::run);
        assertEquals(List.of("reset", "one"), sse.sent.stream().map(s -> s.contains("event: reset") ? "reset" : s.substring(5)).toList());
    }

    @Test
    void aLiveMessageThatArrivesBeforeTheHandOverEndsWaitsForItOnTheWriter() {
        String seen = publish("a", "1");
        publish("a", "2");
        sse.writerTasks = new ArrayList<>();
        PushClient client = new PushClient(sse, history);
        client.subscribe("a", null, seen);
        publish("a", "3"); // its delivery is a writer task queued after the hand-over's
        assertEquals(List.of("2"), data(sse.sent), "the replay is sent on subscribing");
        while (!sse.writerTasks.isEmpty()) {
            sse.writerTasks.remove(0).run(); // in the order queued: the release, then the live delivery
        }
        assertEquals(List.of("2", "3"), data(sse.sent));
    }

    @Test
    void aHandlerGetsTheMissedMessagesWithTheirIdsAndNoResetEvent() {
        String seen = publish("a", "1");
        String two = publish("a", "2");
        List<String> handled = new ArrayList<>();
        PushClient client = new PushClient(sse, history);
        client.subscribe("a", m -> handled.add(m.id() + "=" + new String(m.data(), StandardCharsets.UTF_8)), seen);
        sse.scheduled.forEach(Runnable::run);
        assertEquals(List.of(two + "=2"), handled);

        FakePushConnection other = new FakePushConnection(Upgrade.SSE);
        assertEquals(Replay.Outcome.RESET, new PushClient(other, history).subscribe("a", m -> { }, "not-an-id"));
        assertEquals(List.of(), other.sent, "the application was told by the outcome; it writes what it wants");
    }

    @Test
    void withoutAPositionOrWithoutHistoryTheSubscriptionIsLive() {
        publish("a", "1");
        assertEquals(Replay.Outcome.LIVE, new PushClient(sse, history).subscribe("a", null, null));
        assertEquals(List.of(), sse.sent);
        FakePushConnection plain = new FakePushConnection(Upgrade.SSE);
        assertEquals(Replay.Outcome.LIVE, new PushClient(plain, new LocalPubSub()).subscribe("a", null, "x-1-0"));
    }

    @Test
    void aWebSocketGetsTheMessagesAsTheyAre() {
        String seen = publish("a", "1");
        publish("a", "2");
        FakePushConnection ws = new FakePushConnection(Upgrade.WEBSOCKET);
        new PushClient(ws, history).subscribe("a", null, seen);
        assertEquals(List.of("text:2"), ws.sent);
    }

    @Test
    void aClosedConnectionIsNotSubscribed() {
        sse.close();
        assertNull(new PushClient(sse, history).subscribe("a", null, "x-1-0"));
    }

    private static List<String> data(List<String> sent) {
        return sent.stream().map(s -> s.substring(s.indexOf("data: ") + 6, s.length() - 2)).toList();
    }

    /** An engine where a message is published while the history is read: before the read, or after it. */
    private static final class Racing implements PubSub {
        private final LocalPubSub inner;
        private final boolean beforeRead;

        Racing(LocalPubSub inner, boolean beforeRead) {
            this.inner = inner;
            this.beforeRead = beforeRead;
        }

        @Override
        public void subscribe(String channel, Subscriber subscriber) {
            inner.subscribe(channel, subscriber);
        }

        @Override
        public void unsubscribe(String channel, Subscriber subscriber) {
            inner.unsubscribe(channel, subscriber);
        }

        @Override
        public void publish(String channel, byte[] data) {
            inner.publish(channel, data);
        }

        @Override
        public Replay resume(String channel, String position) {
            if (beforeRead) {
                publish(channel, "live".getBytes(StandardCharsets.UTF_8));
                return inner.resume(channel, position);
            }
            Replay replay = inner.resume(channel, position);
            publish(channel, "live".getBytes(StandardCharsets.UTF_8));
            return replay;
        }
    }
}
