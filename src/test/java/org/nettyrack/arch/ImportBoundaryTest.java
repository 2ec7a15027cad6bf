package org.nettyrack.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The shape of the code: a core that imports only the JDK, and Netty, JRuby, Redis and
 * the servlet API each confined to their own package, none importing another.
 */
class ImportBoundaryTest {
    private static final Path SOURCES = Path.of("src/main/java/org/nettyrack");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)", Pattern.MULTILINE);

    @ParameterizedTest(name = "{0} imports only {1}")
    @CsvSource(delimiter = ';', value = {
        "core;    java. org.nettyrack.core.",
        "redis;   java. redis.clients. org.nettyrack.core.",
        "netty;   java. io.netty. org.nettyrack.core. org.nettyrack.netty.",
        // inside netty/: the leaves (ConnectionEvent, PipelineNames, ServerState) and the rooms
        // a room hands work to; exchange is the hub that calls push, files and the hijack
        "netty/http1; java. io.netty. org.nettyrack.core. org.nettyrack.netty.pipeline.ConnectionEvent",
        "netty/tls; java. io.netty. org.nettyrack.core. org.nettyrack.netty.http1.",
        "netty/listen; java. io.netty. org.nettyrack.core.",
        "netty/http2; java. io.netty. org.nettyrack.core. org.nettyrack.netty.pipeline.ConnectionEvent org.nettyrack.netty.pipeline.PipelineNames org.nettyrack.netty.pipeline.ServerState org.nettyrack.netty.http1. org.nettyrack.netty.exchange.BodyCollector org.nettyrack.netty.exchange.RackDispatcher",
        "netty/exchange; java. io.netty. org.nettyrack.core. org.nettyrack.netty.pipeline.ActiveRequest org.nettyrack.netty.pipeline.ConnectionEvent org.nettyrack.netty.pipeline.PipelineNames org.nettyrack.netty.pipeline.ServerState org.nettyrack.netty.http1. org.nettyrack.netty.http2.Http2Request org.nettyrack.netty.listen.ProxyProtocolHandler org.nettyrack.netty.files. org.nettyrack.netty.push.PushUpgrade org.nettyrack.netty.hijack.",
        "netty/files; java. io.netty. org.nettyrack.core. org.nettyrack.netty.pipeline.PipelineNames org.nettyrack.netty.http1. org.nettyrack.netty.exchange.NettyRackRequest org.nettyrack.netty.exchange.NettyResponseSink",
        "netty/push; java. io.netty. org.nettyrack.core. org.nettyrack.netty.pipeline.ActiveRequest org.nettyrack.netty.pipeline.ConnectionEvent org.nettyrack.netty.pipeline.PipelineNames org.nettyrack.netty.pipeline.ServerState org.nettyrack.netty.exchange.NettyRackRequest org.nettyrack.netty.http2.Http2StreamBytes",
        "netty/hijack; java. io.netty. org.nettyrack.core. org.nettyrack.netty.pipeline.ConnectionEvent org.nettyrack.netty.pipeline.PipelineNames org.nettyrack.netty.http2.Http2StreamBytes",
        "netty/control; java. io.netty. org.nettyrack.core. org.nettyrack.netty.listen. org.nettyrack.netty.http1.",
        "jruby;   java. org.jruby. org.jcodings. org.nettyrack.core.",
        "servlet; java. jakarta.servlet. jakarta.websocket. org.nettyrack.core.",
        "war;     java.",
    })
    void packagesStayInTheirLane(String pkg, String allowed) throws IOException {
        Path dir = SOURCES.resolve(pkg);
        if (!Files.isDirectory(dir)) {
            assertFalse(List.of("core", "netty", "jruby", "servlet").contains(pkg), pkg + " must exist");
            return;
        }
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    String imported = m.group(1);
                    if (Stream.of(allowed.trim().split("\\s+")).noneMatch(imported::startsWith)) {
                        offenders.add(file.getFileName() + ": " + imported);
                    }
                }
            }
        }
        assertEquals(List.of(), offenders);
    }
}
