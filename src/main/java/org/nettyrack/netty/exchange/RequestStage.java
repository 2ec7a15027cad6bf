package org.nettyrack.netty.exchange;

import io.netty.channel.ChannelPipeline;
import org.nettyrack.netty.files.PublicFiles;
import org.nettyrack.netty.pipeline.PipelineNames;
import org.nettyrack.netty.pipeline.ServerState;
import org.nettyrack.netty.pipeline.Wire;

/**
 * The end of every request path, HTTP/1.1's and each HTTP/2 stream's: a {@link BodyCollector}
 * then a {@link RackDispatcher}, given the path's {@link Wire}; and what they share for one
 * server, its {@link ServerState} and its public files ({@code --public}, answered on the
 * event loop before the application; null without). The pipeline builders hold one each.
 */
public record RequestStage(ServerState server, PublicFiles publicFiles) {
    /** Adds the body collector and the dispatcher, last, for requests that come by {@code wire}. */
    public void addTo(ChannelPipeline p, Wire wire) {
        p.addLast(PipelineNames.BODY, new BodyCollector(server, wire));
        p.addLast(PipelineNames.DISPATCHER, new RackDispatcher(server, publicFiles, wire));
    }

    /** The same application and files for a warm-up, whose requests are neither logged nor counted. */
    public RequestStage forWarmup() {
        return new RequestStage(server.forWarmup(), publicFiles);
    }
}
