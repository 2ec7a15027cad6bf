package org.nettyrack.redis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Where a {@link ClusterUrl}'s slots are now: asks the cluster's nodes in turn for its
 * {@link SlotMap} (the one that answered last, then the masters of the last map, then the
 * seed nodes). When the map differs from the last, one line says so:
 *
 * <pre>
 * nettyrack: pubsub: cluster masters: 10.0.0.5:6379 (slots 0-5460), 10.0.0.6:6379 (slots 5461-10922), ...
 * nettyrack: pubsub: cluster: slots 0-5460 are at 10.0.0.8:6379 (was 10.0.0.5:6379): failed over
 * nettyrack: pubsub: cluster: slot 866 is at 10.0.0.6:6379 (was 10.0.0.5:6379): resharded
 * </pre>
 *
 * Writer thread only.
 */
final class ClusterLookup {
    private final ClusterUrl url;
    private final Connector connector;
    private final LinkStatus status;
    private HostAndPort answered;
    private SlotMap last;

    /** status: where a change of layout is said. */
    ClusterLookup(ClusterUrl url, Connector connector, LinkStatus status) {
        this.url = url;
        this.connector = connector;
        this.status = status;
    }

    /** The layout now; JedisConnectionException naming every node's trouble when none gives it. */
    SlotMap refresh() {
        List<String> trouble = new ArrayList<>();
        for (HostAndPort node : candidates()) {
            try (Connection connection = connector.connect(node)) {
                SlotMap map = SlotMap.read(connection);
                answered = node;
                found(map);
                return map;
            } catch (JedisException | IllegalArgumentException e) {
                trouble.add(node + ": " + LinkStatus.reason(e));
            }
        }
        throw new JedisConnectionException("no node gave the cluster's slots (" + String.join("; ", trouble) + ")");
    }

    private Set<HostAndPort> candidates() {
        Set<HostAndPort> nodes = new LinkedHashSet<>();
        if (answered != null) {
            nodes.add(answered);
        }
        if (last != null) {
            nodes.addAll(last.masters());
        }
        url.seeds().forEach(seed -> nodes.add(seed.hostAndPort()));
        return nodes;
    }

    private void found(SlotMap map) {
        if (last == null) {
            status.log("cluster masters: " + map.describe());
        } else {
            String changes = map.changesFrom(last);
            if (changes != null) {
                status.log("cluster: " + changes);
            }
        }
        last = map;
    }
}
