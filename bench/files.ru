# bench/files: the app every server in the file benchmark runs. /tp/NAME answers with
# Rack::Files (a to_path body) for $BENCH_FILES_DIR/NAME; anything else is bench/hello.ru's
# answer, so the 121-byte file can be set against the hello app on the same server.
require "rack/files"

files = Rack::Files.new(ENV.fetch("BENCH_FILES_DIR"))
run lambda { |env|
  path = env["PATH_INFO"]
  next [200, { "content-type" => "text/plain" }, ["Hello, World!"]] unless path.start_with?("/tp/")

  files.call(env.merge("PATH_INFO" => path.delete_prefix("/tp")))
}
