package org.nettyrack.core.ops;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import org.nettyrack.core.Json;
import org.nettyrack.core.WorkerPool;
import org.nettyrack.core.push.PubSub;

/**
 * One look at a running server, as {@code GET /stats} reports it. Built by
 * {@link ServerCounters#snapshot} from counters and gauges read one after the other, so the
 * figures are each exact but not one atomic picture. {@link #toJson()}:
 * <pre>
 * {"uptime":12.345,
 *  "process":{"pid":4242,"phase":"serving","restart":null,"reload":null},
 *  "connections":{"open":3},
 *  "requests":{"in_flight":1,"total":120,"errors":2,"rejected":0},
 *  "workers":{"busy":1,"threads":4,"max":16,"queued":0},
 *  "push":{"websocket":1,"sse":0,"slow_closed":0},
 *  "pubsub":{"engine":"redis","url":"redis://cache:6379/0","link":"up","queued":0},
 *  "heap":{"used":48234496,"max":4294967296}}
 * </pre>
 * uptime in seconds; heap in bytes (max null when the JVM sets no limit); process: this
 * process's id, its {@link Lifecycle} phase, its last hot restart and its last reload of the
 * application in words (or null); push: the sessions open by kind, and how many were closed for
 * a queue past {@code --max-push-queue} since the start (a client too slow for what it was sent). The field meanings
 * are those of {@link ServerCounters} and {@link WorkerPool.Load}.
 */
public record ServerStats(long uptimeNanos, Process process, int openConnections, int requestsInFlight, long requestsTotal,
                          long errors, long rejected, WorkerPool.Load workers, int websocketSessions,
                          int sseSessions, long slowConsumersClosed, PubSub.State pubsub, Heap heap) {

    /** The process: its id, where it is in its life, its last hot restart and reload (null: none). */
    public record Process(long pid, Lifecycle.Phase phase, String restart, String reload) {
        public static Process of(Lifecycle life) {
            return new Process(ProcessHandle.current().pid(), life.phase(), life.restart(), life.reload());
        }
    }

    /** Heap bytes in use, and the most the JVM will grow it to (-1: no limit). */
    public record Heap(long used, long max) {
        public static Heap now() {
            MemoryUsage usage = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            return new Heap(usage.getUsed(), usage.getMax());
        }
    }

    public String toJson() {
        Json json = new Json().beginObject()
            .name("uptime").value(uptimeNanos / 1e9, 3)
            .name("process").beginObject()
            .name("pid").value(process.pid())
            .name("phase").value(process.phase().label())
            .name("restart");
        nullable(json, process.restart());
        json.name("reload");
        nullable(json, process.reload());
        json.endObject()
            .name("connections").beginObject().name("open").value(openConnections).endObject()
            .name("requests").beginObject()
            .name("in_flight").value(requestsInFlight)
            .name("total").value(requestsTotal)
            .name("errors").value(errors)
            .name("rejected").value(rejected)
            .endObject()
            .name("workers").beginObject()
            .name("busy").value(workers.busy())
            .name("threads").value(workers.threads())
            .name("max").value(workers.maxThreads())
            .name("queued").value(workers.queued())
            .endObject()
            .name("push").beginObject()
            .name("websocket").value(websocketSessions)
            .name("sse").value(sseSessions)
            .name("slow_closed").value(slowConsumersClosed)
            .endObject();
        pubsub(json.name("pubsub"));
        json.name("heap").beginObject().name("used").value(heap.used()).name("max");
        if (heap.max() < 0) {
            json.nullValue();
        } else {
            json.value(heap.max());
        }
        return json.endObject().endObject().toString();
    }

    private void pubsub(Json json) {
        if (pubsub == null) {
            json.nullValue();
            return;
        }
        json.beginObject().name("engine").value(pubsub.engine());
        if (pubsub.url() != null) {
            json.name("url").value(pubsub.url());
        }
        if (pubsub.link() != null) {
            json.name("link").value(pubsub.link());
        }
        if (pubsub.queued() != null) {
            json.name("queued").value(pubsub.queued());
        }
        json.endObject();
    }

    private static void nullable(Json json, String value) {
        if (value == null) {
            json.nullValue();
        } else {
            json.value(value);
        }
    }
}
