/*
 * test_json.c - cmocka tests of tools/json.c: what the strict parser accepts
 * and rejects (with where), escapes and UTF-8, nesting, numbers, and the
 * builder/writer round trip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "json.h"

static struct jv *parse(const char *text)
{
    struct json_error err;
    return json_parse(text, strlen(text), &err);
}

/* Parse must fail; returns the error offset. */
static size_t reject(const char *text)
{
    struct json_error err;
    struct jv *v = json_parse(text, strlen(text), &err);
    if (v) {
        jv_free(v);
        fail_msg("accepted invalid JSON: %s", text);
    }
    assert_true(err.msg[0] != '\0');
    return err.offset;
}

static void test_literals_and_numbers(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        double value;
    } nums[] = {{"0", 0},           {"-0", 0},        {"123", 123},   {"-17", -17}, {"1.5", 1.5},
                {"1.5e10", 1.5e10}, {"-1E-2", -0.01}, {"2e+3", 2000}, {" 42 ", 42}};
    for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        struct jv *v = parse(nums[i].text);
        assert_non_null(v);
        assert_int_equal(v->type, J_NUMBER);
        assert_true(v->num == nums[i].value);
        jv_free(v);
    }
    struct jv *v = parse("[true,false,null]");
    assert_int_equal(jv_len(v), 3);
    assert_int_equal(jv_at(v, 0)->type, J_TRUE);
    assert_int_equal(jv_at(v, 1)->type, J_FALSE);
    assert_int_equal(jv_at(v, 2)->type, J_NULL);
    jv_free(v);
    v = parse("12345678901");
    assert_int_equal(jv_int(v, -1), 12345678901L);
    jv_free(v);
    v = parse("1.25");
    assert_int_equal(jv_int(v, -1), -1); /* not integral */
    jv_free(v);
}

static void test_invalid_numbers(void **state)
{
    (void)state;
    static const char *const bad[] = {"01", "-",    "1.",  ".5",       "1e",  "1e+",  "+1",
                                      "-a", "0x10", "NaN", "Infinity", "--1", "1.2.3"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        reject(bad[i]);
    assert_int_equal(reject("01"), 1); /* at the second digit */
}

static void test_string_escapes(void **state)
{
    (void)state;
    struct jv *v = parse("\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"");
    assert_non_null(v);
    assert_string_equal(v->s, "a\"b\\c/d\be\ff\ng\rh\ti");
    jv_free(v);
    v = parse("\"\\u00e9\\u20ac\\ud83d\\ude00\"");
    assert_string_equal(v->s, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    jv_free(v);
    v = parse("\"x\\u0000y\"");
    assert_int_equal(v->n, 3); /* the NUL is kept; length says so */
    assert_memory_equal(v->s, "x\0y", 3);
    jv_free(v);
    v = parse("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""); /* raw UTF-8 */
    assert_non_null(v);
    assert_int_equal(v->n, strlen("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
    jv_free(v);
}

static void test_invalid_strings(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "\"abc",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\u12g4\"",
        "\"\\ud800\"",
        "\"\\ud800x\"",
        "\"\\udc00\"",
        "\"a\nb\"",
        "\"a\tb\"",
        "\"\xff\"",
        "\"\xc0\xaf\"",
        "\"\xe0\x80\xaf\"",
        "\"\xed\xa0\x80\"",
        "\"\xf4\x90\x80\x80\"",
        "\"\xc3\"",
        "'a'",
        "\"\\",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        reject(bad[i]);
    assert_int_equal(reject("\"ab\\q\""), 4); /* points at the bad escape letter */
}

static void test_structure(void **state)
{
    (void)state;
    struct jv *v = parse(" {\"a\": [1, {\"b\": null}, []], \"c\": {}, \"a\": 2}\r\n");
    assert_non_null(v);
    assert_int_equal(v->type, J_OBJECT);
    assert_int_equal(v->n, 3);
    const struct jv *a = jv_get(v, "a"); /* the first of duplicate keys */
    assert_int_equal(jv_len(a), 3);
    assert_int_equal(jv_get(jv_at(a, 1), "b")->type, J_NULL);
    assert_int_equal(jv_len(jv_at(a, 2)), 0);
    assert_int_equal(jv_get(v, "c")->n, 0);
    assert_null(jv_get(v, "missing"));
    assert_null(jv_get(a, "a"));     /* not an object */
    assert_null(jv_at(v, 0));        /* not an array */
    assert_null(jv_get_str(v, "a")); /* not a string */
    jv_free(v);
}

static void test_invalid_structure(void **state)
{
    (void)state;
    static const char *const bad[] = {"",      "   ",        "{",         "[",         "[1,]",
                                      "[,1]",  "{\"a\":1,}", "{\"a\" 1}", "{1:2}",     "{\"a\":}",
                                      "[1 2]", "[1] 2",      "}",         "/*c*/1",    "[1]//c",
                                      "tru",   "nul",        "True",      "{\"a\":1]", "[\"a\"}"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        reject(bad[i]);
    assert_int_equal(reject("[1,]"), 3);
    assert_int_equal(reject("{\"k\":1} x"), 8);
}

static void test_nesting_limit(void **state)
{
    (void)state;
    char deep[2 * JSON_MAX_DEPTH + 3];
    for (int depth = JSON_MAX_DEPTH; depth <= JSON_MAX_DEPTH + 1; depth++) {
        memset(deep, '[', (size_t)depth);
        memset(deep + depth, ']', (size_t)depth);
        deep[2 * depth] = '\0';
        struct jv *v = parse(deep);
        if (depth == JSON_MAX_DEPTH) {
            assert_non_null(v);
            jv_free(v);
        } else {
            assert_int_equal(reject(deep), JSON_MAX_DEPTH);
        }
    }
}

static void test_build_and_write(void **state)
{
    (void)state;
    struct jv *o = jv_object(), *arr = jv_array();
    jv_push(arr, jv_long(-5));
    jv_push(arr, jv_string("q\"\\\n\x01\x7f"));
    jv_push(arr, jv_bool(1));
    jv_push(arr, jv_string(NULL));
    jv_set(o, "list", arr);
    jv_set(o, "k", jv_long(1));
    jv_set(o, "k", jv_long(2)); /* replaces */
    struct sbuf b = {0};
    jv_write(&b, o, 0);
    assert_string_equal(b.s, "{\"list\":[-5,\"q\\\"\\\\\\n\\u0001\\u007f\",true,null],\"k\":2}");
    struct jv *back = parse(b.s); /* round trip */
    assert_non_null(back);
    assert_string_equal(jv_str(jv_at(jv_get(back, "list"), 1)), "q\"\\\n\x01\x7f");
    struct jv *copy = jv_clone(back);
    sbuf_reset(&b);
    jv_write(&b, copy, 2);
    assert_string_equal(b.s, "{\n  \"list\": [\n    -5,\n    \"q\\\"\\\\\\n\\u0001\\u007f\",\n"
                             "    true,\n    null\n  ],\n  \"k\": 2\n}");
    sbuf_reset(&b);
    struct jv *num = parse("1.50e3");
    jv_write(&b, num, 0);
    assert_string_equal(b.s, "1.50e3"); /* numbers keep their text */
    jv_free(num);
    jv_free(copy);
    jv_free(back);
    jv_free(o);
    sbuf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literals_and_numbers),
        cmocka_unit_test(test_invalid_numbers),
        cmocka_unit_test(test_string_escapes),
        cmocka_unit_test(test_invalid_strings),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_invalid_structure),
        cmocka_unit_test(test_nesting_limit),
        cmocka_unit_test(test_build_and_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
