# frozen_string_literal: true

# A clock over Server-Sent Events: `script/server examples/sse_clock/config.ru`, then open
# http://localhost:9292 (or `curl -N -H 'Accept: text/event-stream' localhost:9292`).
#
# GET / is a page whose EventSource asks the same address for text/event-stream, which the
# server announces as env["rack.upgrade?"] == :sse. The stream is numbered "tick" events,
# one a second. A browser that loses the connection comes back (after the retry: time the
# first event sets) with a Last-Event-ID header, and the numbering carries on from there.
# One thread publishes the time for every client; each stream subscribes to it.

# Publishes the time on the "clock" channel at every full second, from the first stream on.
module Ticker
  CHANNEL = "clock"
  @start = Mutex.new

  def self.start
    @start.synchronize do
      @thread ||= Thread.new do
        loop do
          sleep(1 - (Time.now.to_f % 1))
          Nettyrack.publish(CHANNEL, Time.now.strftime("%T"))
        end
      end
    end
  end
end

# One browser's stream. The subscription's block runs in the connection's callback order,
# so @count needs no lock.
class ClockStream
  def initialize(last_event_id)
    @count = last_event_id.to_i
  end

  def on_open(client)
    tick(client, Time.now.strftime("%T"), retry: 1000)
    client.subscribe(Ticker::CHANNEL) { |_channel, time| tick(client, time) }
    Ticker.start
  end

  private

  def tick(client, time, **fields)
    @count += 1
    client.write(time, id: @count.to_s, event: "tick", **fields)
  end
end

PAGE = <<~HTML
  <!doctype html>
  <meta charset="utf-8">
  <title>nettyrack SSE clock</title>
  <h1 id="time">--:--:--</h1>
  <p id="status">connecting</p>
  <script>
    const source = new EventSource("/");
    const show = (text) => { document.getElementById("status").textContent = text; };
    source.addEventListener("tick", (event) => {
      document.getElementById("time").textContent = event.data;
      show(`event ${event.lastEventId}`);
    });
    source.onerror = () => show("reconnecting");
  </script>
HTML

run lambda { |env|
  if env["rack.upgrade?"] == :sse
    env["rack.upgrade"] = ClockStream.new(env["HTTP_LAST_EVENT_ID"])
    [200, {}, []]
  elsif env["PATH_INFO"] == "/"
    [200, { "content-type" => "text/html; charset=utf-8" }, [PAGE]]
  else
    [404, { "content-type" => "text/plain" }, ["not found\n"]]
  end
}
