package org.nettyrack.redis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * SPUBLISH (kept first, with a {@link RedisHistory}) for the {@link ShardWriter} thread: a batch is split by the master that owns each
 * channel's slot (in their order, so a channel's messages keep theirs) and pipelined to each
 * master on a connection of its own, all written before any reply is read. A share that fails
 * on an old connection is tried once more on a fresh one; what a master cannot take (unreachable, or MOVED: the slot is not its
 * own now) comes back to the writer, to be sent again after it read the layout again.
 */
final class ShardPublisher {
    private final Connector connector;
    private final LinkStatus status;
    private final RedisHistory history; // null: none kept
    private final Map<HostAndPort, Connector.NodeConnection> connections = new HashMap<>();
    private boolean rejectedLogged;

    /** history: where messages are kept as they are published, or null. */
    ShardPublisher(Connector connector, LinkStatus status, RedisHistory history) {
        this.connector = connector;
        this.status = status;
        this.history = history;
    }

    /**
     * Sends the batch; returns the messages not delivered, in their order. Every master's share
     * is written before any reply is read, so the masters work on theirs at the same time.
     */
    List<PublishQueue.Outgoing> publish(List<PublishQueue.Outgoing> batch, SlotMap map) {
        Map<HostAndPort, List<PublishQueue.Outgoing>> byMaster = new LinkedHashMap<>();
        List<PublishQueue.Outgoing> undelivered = new ArrayList<>();
        for (PublishQueue.Outgoing message : batch) {
            HostAndPort owner = map.owner(SlotMap.slot(message.channel()));
            if (owner == null) {
                undelivered.add(message);
            } else {
                byMaster.computeIfAbsent(owner, o -> new ArrayList<>()).add(message);
            }
        }
        Map<HostAndPort, List<PublishQueue.Outgoing>> written = new LinkedHashMap<>();
        Map<HostAndPort, List<PublishQueue.Outgoing>> again = new LinkedHashMap<>();
        byMaster.forEach((master, messages) -> {
            Connector.NodeConnection connection = connections.get(master);
            if (connection != null && write(master, connection, messages)) {
                written.put(master, messages);
            } else {
                again.put(master, messages); // no connection yet, or an old one that broke
            }
        });
        written.forEach((master, messages) -> {
            try {
                undelivered.addAll(replies(connections.get(master), messages));
            } catch (JedisException broken) {
                close(master);
                again.put(master, messages);
            }
        });
        again.forEach((master, messages) -> undelivered.addAll(publish(master, messages)));
        return undelivered;
    }

    /** Closes the connections to nodes that are no masters now. */
    void retain(Set<HostAndPort> masters) {
        for (HostAndPort node : Set.copyOf(connections.keySet())) {
            if (!masters.contains(node)) {
                close(node);
            }
        }
    }

    void close() {
        Set.copyOf(connections.keySet()).forEach(this::close);
    }

    /** On a fresh connection, written and read at once; what could not be sent comes back. */
    private List<PublishQueue.Outgoing> publish(HostAndPort master, List<PublishQueue.Outgoing> messages) {
        try {
            Connector.NodeConnection connection = connections.computeIfAbsent(master, connector::connect);
            if (write(master, connection, messages)) {
                return replies(connection, messages);
            }
        } catch (JedisException e) { // cannot connect, or the connection broke
            close(master);
            status.lost(new JedisConnectionException(master + ": " + LinkStatus.reason(e)));
        }
        return messages;
    }

    /** Writes the messages' commands and flushes; false (the connection closed) when it broke. */
    private boolean write(HostAndPort master, Connector.NodeConnection connection, List<PublishQueue.Outgoing> messages) {
        try {
            for (PublishQueue.Outgoing message : messages) {
                if (history == null) {
                    connection.sendCommand(Protocol.Command.SPUBLISH, message.channel(), message.data());
                } else {
                    connection.sendCommand(Protocol.Command.EVAL, history.keep(message));
                }
            }
            connection.flushCommands();
            return true;
        } catch (JedisException e) {
            close(master);
            return false;
        }
    }

    /** Reads the replies to messages written; returns those a master refused as not its own (MOVED). */
    private List<PublishQueue.Outgoing> replies(Connection connection, List<PublishQueue.Outgoing> messages) {
        List<Object> replies = connection.getMany(messages.size());
        List<PublishQueue.Outgoing> undelivered = new ArrayList<>();
        boolean rejected = false;
        for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i) instanceof JedisRedirectionException) {
                undelivered.add(messages.get(i));
            } else if (replies.get(i) instanceof JedisDataException refused) {
                if (!rejectedLogged) {
                    status.log("Redis refused an SPUBLISH" + (history == null ? "" : " with its history")
                        + " (" + refused.getMessage() + ")");
                }
                rejected = true;
            }
        }
        rejectedLogged = rejected;
        return undelivered;
    }

    private void close(HostAndPort node) {
        Connection connection = connections.remove(node);
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException e) {
                // already broken
            }
        }
    }
}
