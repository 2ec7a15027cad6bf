# frozen_string_literal: true

# The WebSocket echo server the Autobahn|Testsuite cases expect: every message goes back as it
# came (text as text, binary as binary). spec/push/autobahn_spec.rb serves it in-process; by hand:
#
#   bin/nettyrack -p 9001 --max-message-size 32m --max-push-queue 64m spec/support/autobahn/echo.ru
#   .toolchain/python/bin/kosoku 127.0.0.1:9001 -i '1.*' -o tmp/autobahn   # HTML report in tmp/autobahn
module AutobahnEcho
  def self.on_message(client, data)
    client.write(data)
  end
end

run(lambda do |env|
  next [400, { "content-type" => "text/plain" }, ["WebSocket only\n"]] unless env["rack.upgrade?"] == :websocket

  env["rack.upgrade"] = AutobahnEcho
  [200, {}, []]
end)
