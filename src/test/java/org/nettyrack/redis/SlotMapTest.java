package org.nettyrack.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.nettyrack.redis.Inbox.bytes;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

class SlotMapTest {
    private static final HostAndPort A = new HostAndPort("127.0.0.1", 7000);
    private static final HostAndPort B = new HostAndPort("127.0.0.1", 7001);
    private static final HostAndPort C = new HostAndPort("127.0.0.1", 7002);

    @Test
    void readsEachRangesMasterAndSaysTheLayout() {
        SlotMap map = map(range(0, 5460, A), range(5461, 10922, B), range(10923, 16383, C));
        assertEquals(A, map.owner(0));
        assertEquals(B, map.owner(5461));
        assertEquals(C, map.owner(16383));
        assertEquals(Set.of(A, B, C), map.masters());
        assertEquals("127.0.0.1:7000 (slots 0-5460), 127.0.0.1:7001 (slots 5461-10922), 127.0.0.1:7002 (slots 10923-16383)",
            map.describe());
    }

    @Test
    void channelsHashAsKeysDoHashTagsIncluded() {
        assertEquals(11058, SlotMap.slot("somekey")); // CLUSTER KEYSLOT somekey, in its docs
        assertEquals(2515, SlotMap.slot("foo{hash_tag}"));
        assertEquals(SlotMap.slot("{user:1}:feed"), SlotMap.slot("{user:1}:alerts"));
    }

    @Test
    void anEmptyHostIsTheAskedNodesAndAnUnknownOneLeavesTheRangeWithoutAMaster() {
        SlotMap map = SlotMap.parse(List.of(List.of(0L, 99L, List.of(bytes(""), 7000L, bytes("id"))),
            List.of(100L, 16383L, List.of(bytes("?"), 7001L, bytes("id")))), "10.0.0.5");
        assertEquals(new HostAndPort("10.0.0.5", 7000), map.owner(99));
        assertNull(map.owner(100));
        assertEquals("10.0.0.5:7000 (slots 0-99); no master for slots 100-16383", map.describe());
    }

    @Test
    void saysWhatMovedAndWhy() {
        SlotMap before = map(range(0, 5460, A), range(5461, 10922, B), range(10923, 16383, C));
        HostAndPort promoted = new HostAndPort("127.0.0.1", 7004);
        SlotMap failedOver = map(range(0, 5460, A), range(5461, 10922, promoted), range(10923, 16383, C));
        assertEquals("slots 5461-10922 are at 127.0.0.1:7004 (was 127.0.0.1:7001): failed over", failedOver.changesFrom(before));
        SlotMap resharded = map(range(0, 5460, A), range(5461, 5461, C), range(5462, 10922, B), range(10923, 16383, C));
        assertEquals("slot 5461 is at 127.0.0.1:7002 (was 127.0.0.1:7001): resharded", resharded.changesFrom(before));
        assertNull(before.changesFrom(map(range(0, 5460, A), range(5461, 10922, B), range(10923, 16383, C))));
    }

    private static List<Object> range(long first, long last, HostAndPort master) {
        return List.of(first, last, List.of(bytes(master.getHost()), (long) master.getPort(), bytes("id")));
    }

    @SafeVarargs
    private static SlotMap map(List<Object>... ranges) {
        return SlotMap.parse(List.of((Object[]) ranges), "127.0.0.1");
    }
}
