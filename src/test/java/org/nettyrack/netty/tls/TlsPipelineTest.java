package org.nettyrack.netty.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.HttpPipeline;
import org.nettyrack.netty.exchange.RequestStage;
import org.nettyrack.netty.http1.PlainHttpRefusal;
import org.nettyrack.netty.listen.ConnectionLimit;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.ServerState;

/**
 * An ssl:// connection's pipeline in memory: a Netty TLS client on one {@link EmbeddedChannel},
 * the server's {@link HttpPipeline} with a {@link TlsListener} on another, bytes carried across
 * by hand. Workers run the application on the test thread.
 */
class TlsPipelineTest {
    @TempDir
    Path dir;
    private TlsListener tls;
    private EmbeddedChannel server;

    @BeforeEach
    void serve() throws Exception {
        TestCertificates certs = new TestCertificates(dir).server("server", "rsa:2048");
        tls = new TlsListener(TestCertificates.bind(Map.of("cert", certs.path("server.pem"), "key", certs.path("server.key"))));
        ServerState state = new ServerState(ServerConfig.builder().build(), (request, response) -> {
            byte[] body = (request.scheme() + " " + request.target()).getBytes(StandardCharsets.US_ASCII);
            response.respond(200, new ResponseHeaders(), body, 0, body.length);
        }, task -> {
            task.run();
            return true;
        });
        HttpPipeline pipeline = new HttpPipeline(new RequestStage(state, null), new ConnectionLimit(state.config.workers().connectionCap()), tls);
        server = new EmbeddedChannel(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                pipeline.configure(ch.pipeline());
            }
        });
    }

    @Test
    void aTlsClientGetsHttp11WithSchemeHttps() throws Exception {
        SslContext clientContext = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build();
        EmbeddedChannel client = new EmbeddedChannel(clientContext.newHandler(Unpooled.EMPTY_BUFFER.alloc()));
        shuttle(client);
        assertTrue(client.pipeline().get(SslHandler.class).handshakeFuture().isSuccess());
        assertNotNull(server.pipeline().get(PipelineNames.DISPATCHER));
        assertNull(server.pipeline().get(PipelineNames.ALPN));
        assertEquals(java.util.List.of("ssl", PipelineNames.TIMEOUTS, PipelineNames.DECODER, PipelineNames.ENCODER,
            PipelineNames.DATE, PipelineNames.GUARD, PipelineNames.CONTINUE, PipelineNames.BODY, PipelineNames.DISPATCHER),
            server.pipeline().names().subList(0, 9));

        client.writeOutbound(Unpooled.copiedBuffer("GET /secret HTTP/1.1\r\nhost: x\r\n\r\n", StandardCharsets.US_ASCII));
        String response = shuttle(client);
        assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
        assertTrue(response.endsWith("https /secret"), response);
    }

    @Test
    void plainHttpGetsACleartext400AndTheConnectionCloses() {
        server.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\nhost: x\r\n\r\n", StandardCharsets.US_ASCII));
        server.runPendingTasks();
        ByteBuf out = server.readOutbound();
        String reply = out.toString(StandardCharsets.US_ASCII);
        out.release();
        assertTrue(reply.startsWith("HTTP/1.1 400 Bad Request\r\n"), reply);
        assertTrue(reply.endsWith(PlainHttpRefusal.BODY), reply);
        assertFalse(server.isOpen());
    }

    /** Carries bytes both ways until neither side has more; returns the cleartext the client read. */
    private String shuttle(EmbeddedChannel client) {
        StringBuilder read = new StringBuilder();
        boolean moved = true;
        while (moved) {
            moved = carry(client, server) | carry(server, client);
            server.runPendingTasks();
            for (Object msg; (msg = client.readInbound()) != null; ) {
                read.append(((ByteBuf) msg).toString(StandardCharsets.ISO_8859_1));
                ((ByteBuf) msg).release();
            }
        }
        return read.toString();
    }

    private static boolean carry(EmbeddedChannel from, EmbeddedChannel to) {
        boolean moved = false;
        for (Object msg; (msg = from.readOutbound()) != null; ) {
            to.writeInbound(msg);
            moved = true;
        }
        return moved;
    }
}
