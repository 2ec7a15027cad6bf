# The smallest Rack app: `script/server examples/hello/config.ru`, then open http://localhost:9292
run lambda { |env|
  [200, { "content-type" => "text/plain" }, ["Hello from nettyrack on #{RUBY_ENGINE} #{RUBY_VERSION}\n"]]
}
