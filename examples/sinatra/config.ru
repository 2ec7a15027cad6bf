# A Sinatra app: `script/server examples/sinatra/config.ru`
require "sinatra/base"
require "json"

class SinatraExample < Sinatra::Base
  get("/") { "sinatra #{Sinatra::VERSION} on #{RUBY_ENGINE} #{defined?(JRUBY_VERSION) ? JRUBY_VERSION : RUBY_VERSION}\n" }
  get("/json/:n") { content_type :json; { n: params[:n].to_i * 2 }.to_json }
  post("/echo") { request.body.read.upcase }
end

run SinatraExample
