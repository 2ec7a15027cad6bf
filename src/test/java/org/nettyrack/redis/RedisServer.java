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
 * A real redis-server for a test, on a free 127.0.0.1 port, without persistence: a master, a
 * replica of one ({@link #replicaOf}), or a sentinel watching one ({@link #sentinelOf}, the same
 * binary with {@code --sentinel}). Tests are skipped where redis-server is not installed
 * (script/bootstrap installs it).
 */
public final class RedisServer implements AutoCloseable {
    private static final String BINARY = findBinary();

    private final int port;
    private final Path dir;
    private final List<String> role;
    private Process process;

    private RedisServer(int port, List<String> role) throws IOException {
        this.port = port;
        this.dir = Files.createTempDirectory("nettyrack-redis");
        this.role = role;
    }

    public static RedisServer start() throws IOException, InterruptedException {
        return start(List.of());
    }

    /** A node for a Redis Cluster ({@link RedisCluster}): cluster mode, its own nodes.conf, failing over after {@code nodeTimeoutMillis}. */
    static RedisServer clusterNode(long nodeTimeoutMillis) throws IOException, InterruptedException {
        return start(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", String.valueOf(nodeTimeoutMillis), "--repl-diskless-sync-delay", "0"));
    }

    /** redis-cli, beside redis-server. */
    static String cli() {
        Assumptions.assumeTrue(BINARY != null, "redis-server is not installed");
        File cli = new File(new File(BINARY).getParentFile(), "redis-cli");
        Assumptions.assumeTrue(cli.canExecute(), "redis-cli is not installed beside " + BINARY);
        return cli.getPath();
    }

    /** A replica of {@code master}, read-only, as Sentinel would promote. */
    static RedisServer replicaOf(RedisServer master) throws IOException, InterruptedException {
        return start(List.of("--replicaof", "127.0.0.1", String.valueOf(master.port)));
    }

    /**
     * A sentinel watching {@code master} as {@code name}, with {@code quorum}: a master silent
     * for {@code downMillis} is failed over to a replica.
     */
    static RedisServer sentinelOf(RedisServer master, String name, int quorum, long downMillis)
        throws IOException, InterruptedException {
        Assumptions.assumeTrue(BINARY != null, "redis-server is not installed");
        RedisServer sentinel = new RedisServer(freePort(), List.of());
        Path conf = sentinel.dir.resolve("sentinel.conf");
        Files.writeString(conf, String.join("\n",
            "sentinel monitor " + name + " 127.0.0.1 " + master.port + " " + quorum,
            "sentinel down-after-milliseconds " + name + " " + downMillis,
            "sentinel failover-timeout " + name + " " + Math.max(2_000, 4 * downMillis),
            "sentinel parallel-syncs " + name + " 1", ""));
        RedisServer started = new RedisServer(sentinel.port, List.of(conf.toString(), "--sentinel"), sentinel.dir);
        started.restart();
        return started;
    }

    private RedisServer(int port, List<String> role, Path dir) {
        this.port = port;
        this.dir = dir;
        this.role = role;
    }

    private static RedisServer start(List<String> role) throws IOException, InterruptedException {
        Assumptions.assumeTrue(BINARY != null, "redis-server is not installed");
        RedisServer server = new RedisServer(freePort(), role);
        server.restart();
        return server;
    }

    /** Starts the server again on the same port (after {@link #kill}). */
    void restart() throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(BINARY));
        boolean sentinel = role.contains("--sentinel");
        if (sentinel) {
            command.add(role.get(0)); // the config file comes first
            command.add("--sentinel");
        }
        command.addAll(List.of("--port", String.valueOf(port), "--bind", "127.0.0.1", "--dir", dir.toString()));
        if (!sentinel) {
            command.addAll(List.of("--save", "", "--appendonly", "no"));
            command.addAll(role);
        }
        process = new ProcessBuilder(command)
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
