package org.nettyrack.redis;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.Jedis;

/**
 * A real redis-server for a test, on a free 127.0.0.1 port, without persistence. Tests are
 * skipped where redis-server is not installed (script/bootstrap installs it).
 */
public final class RedisServer implements AutoCloseable {
    private static final String BINARY = findBinary();

    private final int port;
    private final Path dir;
    private Process process;

    private RedisServer(int port) throws IOException {
        this.port = port;
        this.dir = Files.createTempDirectory("nettyrack-redis");
    }

    public static RedisServer start() throws IOException, InterruptedException {
        Assumptions.assumeTrue(BINARY != null, "redis-server is not installed");
        RedisServer server = new RedisServer(freePort());
        server.restart();
        return server;
    }

    /** Starts the server again on the same port (after {@link #kill}). */
    void restart() throws IOException, InterruptedException {
        process = new ProcessBuilder(BINARY, "--port", String.valueOf(port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", dir.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis.log").toFile())
            .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!accepts()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("redis-server did not start on port " + port + ": "
                    + Files.readString(dir.resolve("redis.log")));
            }
            Thread.sleep(20);
        }
    }

    /** SIGKILL: connections drop at once, as when Redis crashes. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(20, TimeUnit.SECONDS);
    }

    /** SIGSTOP / SIGCONT: a Redis that keeps its connections but answers nothing, as in a network partition. */
    void pause(boolean paused) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", paused ? "-STOP" : "-CONT", String.valueOf(process.pid())).start();
        if (!kill.waitFor(20, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill " + (paused ? "-STOP" : "-CONT") + " failed");
        }
    }

    int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** How many connections subscribe to the channel, as Redis counts them. */
    long subscribers(String channel) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return jedis.pubsubNumSub(channel).getOrDefault(channel, 0L);
        }
    }

    @Override
    public void close() throws InterruptedException, IOException {
        kill();
        try (var files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String findBinary() {
        for (String candidate : List.of("/usr/bin/redis-server", "/usr/local/bin/redis-server")) {
            if (new File(candidate).canExecute()) {
                return candidate;
            }
        }
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
            File file = new File(dir, "redis-server");
            if (file.canExecute()) {
                return file.getPath();
            }
        }
        return null;
    }
}
