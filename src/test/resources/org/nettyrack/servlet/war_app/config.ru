# The app WarDeploymentTest packages with `nettyrack war`: Bundler with a Gemfile whose test
# group the WAR leaves out, a lib/ file, public/hello.txt, a POST echo and a WebSocket echo.
require "bundler/setup"
require "rack"
require_relative "lib/greeting"

class Echo
  def on_message(client, data)
    client.write("echo: #{data}")
  end
end

run lambda { |env|
  case env["PATH_INFO"]
  when "/ws"
    env["rack.upgrade"] = Echo.new if env["rack.upgrade?"] == :websocket
    [101, {}, []]
  when "/echo"
    [200, { "content-type" => "text/plain" }, [env["rack.input"].read.upcase]]
  else
    body = "#{Greeting::TEXT} SCRIPT_NAME=#{env['SCRIPT_NAME']} PATH_INFO=#{env['PATH_INFO']} " \
           "RACK_ENV=#{ENV['RACK_ENV']} rack=#{Rack.release}\n"
    [200, { "content-type" => "text/plain" }, [body]]
  end
}
