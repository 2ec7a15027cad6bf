package org.nettyrack.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.redis.RedisPubSub;
import org.nettyrack.redis.RedisServer;

/**
 * Publish/subscribe among the web app's push clients: between WebSockets, from Nettyrack.publish in
 * a plain request, and through the Redis engine (the pubsub context param) with other processes.
 */
abstract non-sealed class DoorPubSubContract extends DoorConcern {
    DoorPubSubContract(ServletDoorContract door) {
        super(door);
    }

    @Test
    void webSocketPubSubReachesEveryConnection() throws Exception {
        Messages first = new Messages();
        Messages second = new Messages();
        WebSocket a = client.newWebSocketBuilder().buildAsync(ws("room"), first).get(30, TimeUnit.SECONDS);
        WebSocket b = client.newWebSocketBuilder().buildAsync(ws("room"), second).get(30, TimeUnit.SECONDS);
        assertEquals("joined", first.next());
        assertEquals("joined", second.next());
        a.sendText("hi all", true).get(30, TimeUnit.SECONDS);
        assertEquals("hi all", first.next());
        assertEquals("hi all", second.next());
        a.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
        b.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
    }

    @Test
    void nettyrackPublishReachesSubscribersOfTheWebApp() throws Exception {
        Messages messages = new Messages();
        WebSocket socket = client.newWebSocketBuilder().buildAsync(ws("room"), messages).get(30, TimeUnit.SECONDS);
        assertEquals("joined", messages.next());
        assertEquals("true", send(HttpRequest.newBuilder(url("publish"))).body());
        assertEquals("from http", messages.next());
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
    }

    /**
     * The pubsub context param, as the CLI's --pubsub: the web app's subscribers hear what
     * another process's Redis engine publishes, and it hears the web app's Nettyrack.publish.
     */
    @Test
    void redisEngineSharesChannelsWithOtherProcesses(@TempDir Path dir) throws Exception {
        String rackup = "class Sub\n"
            + "  def on_open(client) = client.subscribe('news') && client.write('subscribed')\n"
            + "end\n"
            + "run lambda { |env|\n"
            + "  next [200, {}, [Nettyrack.publish('news', 'from the web app').to_s]] unless env['rack.upgrade?']\n"
            + "  env['rack.upgrade'] = Sub.new\n"
            + "  [101, {}, []]\n"
            + "}\n";
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        try (RedisServer redis = RedisServer.start();
             RedisPubSub elsewhere = RedisPubSub.builder(redis.url()).start();
             Container inline = newContainer()) {
            elsewhere.subscribe("news", message -> heard.add(new String(message.data(), StandardCharsets.UTF_8)));
            Path root = new WebApp(dir.resolve("redis")).param("rackup", rackup).param("pubsub", redis.url()).build();
            assertTrue(inline.deploy(root, "/redis"), () -> "deployment failed: " + inline.failure());
            Messages messages = new Messages();
            client.newWebSocketBuilder().buildAsync(URI.create(inline.base().resolve("ws").toString()
                .replaceFirst("^http", "ws")), messages).get(30, TimeUnit.SECONDS);
            assertEquals("subscribed", messages.next());
            // Subscriptions reach Redis in the background: publish until the other side has one.
            String got = null;
            for (int i = 0; i < 60 && got == null; i++) {
                elsewhere.publish("news", "from elsewhere".getBytes(StandardCharsets.UTF_8));
                got = messages.received.poll(500, TimeUnit.MILLISECONDS);
            }
            assertEquals("from elsewhere", got);
            String back = null;
            for (int i = 0; i < 60 && back == null; i++) {
                assertEquals("true", send(HttpRequest.newBuilder(inline.base().resolve("publish"))).body());
                do {
                    back = heard.poll(500, TimeUnit.MILLISECONDS);
                } while ("from elsewhere".equals(back));
            }
            assertEquals("from the web app", back);
        }
    }
}
