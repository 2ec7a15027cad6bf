# frozen_string_literal: true

# Echo over the rack.upgrade push API: `script/server examples/echo/config.ru`.
#
# A WebSocket gets back every message it sends: client.write picks a text frame for a UTF-8
# String and a binary frame for an ASCII-8BIT one, so text comes back as text and binary as
# binary. A GET with Accept: text/event-stream gets its query string back as one Server-Sent
# Event, then the end of the stream. Handlers define only the callbacks they need.

# A WebSocket's handler: one object for every connection, as it keeps no state.
module Echo
  def self.on_message(client, data)
    client.write(data)
  end
end

# An SSE stream's handler: one event, then done.
module EchoOnce
  def self.on_open(client)
    client.write(client.env["QUERY_STRING"])
    client.close
  end
end

HANDLERS = { websocket: Echo, sse: EchoOnce }.freeze
USAGE = <<~TEXT
  nettyrack echo: open a WebSocket to this address and every message comes back,
  or ask for text/event-stream to get the query string back as an event:
    curl -N -H 'Accept: text/event-stream' 'http://localhost:9292/?hello'
TEXT

run lambda { |env|
  if (handler = HANDLERS[env["rack.upgrade?"]])
    env["rack.upgrade"] = handler
    [200, {}, []]
  else
    [200, { "content-type" => "text/plain" }, [USAGE]]
  end
}
